/**
 * Every rule id a refusal may name: the rows of the contract's table "Fee-payer policy"
 * (openapi/relay.yaml), which says what each refuses and with which code. test/rule-ids.test.ts
 * holds this list to the table; the compiler holds every refusal and strict break to this list.
 */
export const RULE_IDS = [
  'W1',
  'W2',
  'W3',
  'W4',
  'S1',
  'S2',
  'S3',
  'S4',
  'R2',
  'R3',
  'N1',
  'N2',
  'B1',
  'P1',
  'P2',
  'F1',
  'F2',
  'F3',
  'C1',
  'C2',
  'C3',
  'A1',
  'A2',
  'A3',
  'A4',
  'A5',
  'A6',
  'A7',
  'K1',
  'K2',
  'K3',
  'K4',
  'T1',
  'T2',
  'O1',
  'O2',
] as const;

/** A rule of the table "Fee-payer policy": what a refusal's `rule` member and a strict break name. */
export type RuleId = (typeof RULE_IDS)[number];
