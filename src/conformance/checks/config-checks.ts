import type { ConformanceCheck } from '../check.ts';
import { ensure, fail, show } from '../check.ts';
import type { ConformanceContext } from '../context.ts';
import { decodeJwt } from 'jose';
import { toPublicKey } from '../transactions.ts';

type Check = ConformanceCheck<ConformanceContext>;

/** Loose ISO 8601 date-time: date, 'T', time, optional fraction, zone. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** Allowed difference between the target's clock and ours when judging that a fresh Token has not expired. */
const CLOCK_SKEW_SECONDS = 300;

export const configChecks: Check[] = [
  {
    id: 'config.fields',
    section: '2.2',
    level: 'MUST',
    title: 'GET /Transaction/config answers the configuration record with its exact capitalised fields',
    async run(ctx) {
      const { record } = await ctx.config();
      const problems: string[] = [];
      const expectString = (name: string) => {
        if (!(name in record)) {
          const near = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
          problems.push(near ? `${name} is missing (found ${near}: field names are capitalised exactly)` : `${name} is missing`);
          return undefined;
        }
        if (typeof record[name] !== 'string' || record[name] === '') {
          problems.push(`${name} is not a non-empty string: ${show(record[name])}`);
          return undefined;
        }
        return record[name] as string;
      };
      const rpcUrl = expectString('RpcUrl');
      const feePayer = expectString('FeePayer');
      expectString('Token');
      expectString('RpcEnvironment');
      const expiration = expectString('TokenExpiration');
      if (rpcUrl !== undefined && !URL.canParse(rpcUrl)) problems.push(`RpcUrl is not a URL: ${show(rpcUrl)}`);
      if (feePayer !== undefined && !toPublicKey(feePayer)) problems.push(`FeePayer is not a base58 public key: ${show(feePayer)}`);
      if (expiration !== undefined && (!ISO_8601.test(expiration) || Number.isNaN(Date.parse(expiration)))) {
        problems.push(`TokenExpiration is not an ISO 8601 timestamp: ${show(expiration)}`);
      }
      ensure(problems.length === 0, problems.join('; '));
    },
  },
  {
    id: 'config.token-expiration',
    section: '2.2',
    level: 'MUST',
    title: 'Token is a JWT whose exp equals TokenExpiration, and it has not expired',
    async run(ctx) {
      const { record } = await ctx.config();
      ensure(typeof record.Token === 'string', `no Token string in the configuration record: ${show(record.Token)}`);
      ensure(typeof record.TokenExpiration === 'string', `no TokenExpiration string: ${show(record.TokenExpiration)}`);
      let claims: Record<string, unknown>;
      try {
        claims = decodeJwt(record.Token);
      } catch (error) {
        fail(`Token is not a JWT: ${(error as Error).message}`);
      }
      ensure(typeof claims.exp === 'number' && Number.isFinite(claims.exp), `the JWT has no numeric exp claim: ${show(claims.exp)}`);
      const expiration = Date.parse(record.TokenExpiration);
      ensure(!Number.isNaN(expiration), `TokenExpiration is not a timestamp: ${show(record.TokenExpiration)}`);
      const expirationSeconds = Math.floor(expiration / 1000);
      ensure(
        expirationSeconds === Math.floor(claims.exp),
        `TokenExpiration ${record.TokenExpiration} (${expirationSeconds}) differs from the JWT exp ${claims.exp} ` +
          `(${new Date(claims.exp * 1000).toISOString()})`,
      );
      const now = Math.floor(Date.now() / 1000);
      ensure(claims.exp > now - CLOCK_SKEW_SECONDS, `the Token handed out has already expired (exp ${record.TokenExpiration})`);
      return `exp ${claims.exp} = ${record.TokenExpiration}`;
    },
  },
];
