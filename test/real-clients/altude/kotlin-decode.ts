/**
 * What the Android SDK can decode: its response data classes (gasstation/data/TransactionResponse.kt,
 * GetAccountData.kt; core/api/TransactionService.kt ConfigResponse) as kotlinx.serialization reads
 * them from a JsonElement (`Altude.json`: ignoreUnknownKeys, isLenient). Names are case-sensitive; a
 * property without a default must be there and not null; a nullable one with a default may be
 * absent. A number property takes a JSON number or a quoted numeric literal in range (the tree
 * decoder parses the primitive's content); a string property takes any primitive when lenient.
 * decodeKotlin returns the problems, so a test shows exactly what would throw on the phone.
 */
type Field =
  | { type: 'string' | 'int' | 'long' | 'double' | 'boolean'; optional?: boolean }
  | { type: 'object'; optional?: boolean; fields: Record<string, Field> }
  | { type: 'list'; optional?: boolean; item: Field; nullableItems?: boolean };

const optional = <F extends Field>(field: F): F => ({ ...field, optional: true });
const string: Field = { type: 'string' };
const int: Field = { type: 'int' };
const long: Field = { type: 'long' };
const double: Field = { type: 'double' };
const boolean: Field = { type: 'boolean' };

const TOKEN_AMOUNT: Field = {
  type: 'object',
  fields: {
    Amount: optional(int),
    Decimals: optional(int),
    UiAmount: optional(double),
    UiAmountString: optional(string),
    AmountUlong: optional(long),
    AmountDecimal: optional(double),
    AmountDouble: optional(double),
  },
};
const TOKEN_INFO: Field = {
  type: 'object',
  fields: {
    pubkey: optional(string),
    Account: optional({
      type: 'object',
      fields: {
        Lamports: optional(long),
        Owner: optional(string),
        Executable: optional(boolean),
        RentEpoch: optional(string),
        Data: optional({
          type: 'object',
          fields: {
            Program: string,
            Space: int,
            Parsed: {
              type: 'object',
              fields: {
                Type: optional(string),
                Info: optional({
                  type: 'object',
                  fields: {
                    TokenAmount: TOKEN_AMOUNT,
                    Delegate: optional(string),
                    DelegatedAmount: optional(string),
                    State: optional(string),
                    IsNative: optional(boolean),
                    Mint: optional(string),
                    Owner: optional(string),
                  },
                }),
              },
            },
          },
        }),
      },
    }),
  },
};

export const ANDROID_TYPES = {
  TransactionResponse: { type: 'object', fields: { Status: string, Message: string, Signature: string } },
  GetBalanceResponse: {
    type: 'object',
    fields: {
      TokenInfos: { type: 'list', item: TOKEN_INFO, nullableItems: true },
      AccountAddress: optional(string),
      Balance: optional(double),
      Symbol: optional(string),
    },
  },
  GetAccountResponse: {
    type: 'object',
    fields: {
      AccountAddress: string,
      AccountInfo: {
        type: 'object',
        fields: { Lamports: optional(long), Owner: optional(string), Executable: optional(boolean), RentEpoch: optional(string) },
      },
      TokenInfos: { type: 'list', item: TOKEN_INFO },
    },
  },
} satisfies Record<string, Field>;

/**
 * The same classes in the Android SDK's released v0.1.3-alpha to v0.1.5-alpha (GetAccountData.kt
 * before commit 8db1d95 renamed them PascalCase; TokenAmount.amount a `String?` there), and the
 * ConfigResponse of v0.1.2-alpha and v0.1.3-alpha (`feePayer`, `rpcUrl`, each defaulting to "").
 * TransactionResponse is `status, message, signature` up to v0.1.4-alpha.
 */
const CAMEL_TOKEN_INFO: Field = {
  type: 'object',
  fields: {
    pubkey: optional(string),
    account: optional({
      type: 'object',
      fields: {
        lamports: optional(long),
        owner: optional(string),
        executable: optional(boolean),
        rentEpoch: optional(string),
        data: optional({
          type: 'object',
          fields: {
            program: string,
            space: int,
            parsed: {
              type: 'object',
              fields: {
                type: optional(string),
                info: optional({
                  type: 'object',
                  fields: {
                    tokenAmount: {
                      type: 'object',
                      fields: {
                        amount: optional(string),
                        decimals: optional(int),
                        uiAmount: optional(double),
                        uiAmountString: optional(string),
                        amountUlong: optional(long),
                        amountDecimal: optional(double),
                        amountDouble: optional(double),
                      },
                    },
                    delegate: optional(string),
                    delegatedAmount: optional(string),
                    state: optional(string),
                    isNative: optional(boolean),
                    mint: optional(string),
                    owner: optional(string),
                  },
                }),
              },
            },
          },
        }),
      },
    }),
  },
};

export const ANDROID_RELEASED_CAMEL_TYPES = {
  ConfigResponse: { type: 'object', fields: { feePayer: string, rpcUrl: string } },
  TransactionResponse: { type: 'object', fields: { status: string, message: string, signature: string } },
  GetBalanceResponse: {
    type: 'object',
    fields: {
      tokenInfos: { type: 'list', item: CAMEL_TOKEN_INFO, nullableItems: true },
      accountAddress: optional(string),
      balance: optional(double),
      symbol: optional(string),
    },
  },
  GetAccountResponse: {
    type: 'object',
    fields: {
      accountAddress: string,
      accountInfo: {
        type: 'object',
        fields: { lamports: optional(long), owner: optional(string), executable: optional(boolean), rentEpoch: optional(string) },
      },
      tokenInfos: { type: 'list', item: CAMEL_TOKEN_INFO },
    },
  },
} satisfies Record<string, Field>;

const RANGES = { int: [-(2n ** 31n), 2n ** 31n - 1n], long: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

export function decodeKotlin(value: unknown, type: Field, path = '$'): string[] {
  if (value === null || value === undefined) return [`${path}: null for a non-null ${type.type}`];
  const primitive = typeof value !== 'object';
  switch (type.type) {
    case 'string':
      return primitive ? [] : [`${path}: a ${Array.isArray(value) ? 'list' : 'object'} for a String`];
    case 'boolean':
      return primitive && /^(true|false)$/.test(String(value)) ? [] : [`${path}: ${JSON.stringify(value)} is not a Boolean`];
    case 'double':
      return primitive && Number.isFinite(Number(value)) && String(value).trim() !== '' ? [] : [`${path}: ${JSON.stringify(value)} is not a Double`];
    case 'int':
    case 'long': {
      if (!primitive || !/^-?\d+$/.test(String(value))) return [`${path}: ${JSON.stringify(value)} is not an ${type.type === 'int' ? 'Int' : 'Long'}`];
      const [low, high] = RANGES[type.type];
      const n = BigInt(String(value));
      return n >= low && n <= high ? [] : [`${path}: ${String(value)} is out of the range of ${type.type === 'int' ? 'Int' : 'Long'}`];
    }
    case 'list':
      if (!Array.isArray(value)) return [`${path}: not a list`];
      return value.flatMap((item, i) => (item === null && type.nullableItems ? [] : decodeKotlin(item, type.item, `${path}[${i}]`)));
    case 'object': {
      if (primitive || Array.isArray(value)) return [`${path}: not an object`];
      const record = value as Record<string, unknown>;
      return Object.entries(type.fields).flatMap(([name, field]) => {
        if (!(name in record) || record[name] === null) return field.optional ? [] : [`${path}.${name}: Field '${name}' is required`];
        return decodeKotlin(record[name], field, `${path}.${name}`);
      });
    }
  }
}
