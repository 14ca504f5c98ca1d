import type { TargetResponse } from './target-client.ts';

/** 'POST /Account/create → 422 WRONG_FEE_PAYER: The transaction…' — a response, in one line, for reasons. */
export function describeResponse(res: TargetResponse): string {
  const body = res.json as { code?: unknown; detail?: unknown; title?: unknown; message?: unknown } | undefined;
  const parts: string[] = [res.label];
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    if (typeof body.code === 'string') parts.push(body.code);
    const text = [body.detail, body.title, body.message].find((v) => typeof v === 'string');
    if (typeof text === 'string' && !res.ok) parts.push(clip(text, 120));
    if (res.ok || parts.length === 1) parts.push(clip(JSON.stringify(body), 160));
  } else if (res.text !== '') {
    parts.push(clip(JSON.stringify(res.text), 120));
  } else {
    parts.push('(empty body)');
  }
  return parts.join(' ');
}

/** The problem `code` of an error body, if it has one. */
export function problemCode(res: TargetResponse): string | undefined {
  const code = (res.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
