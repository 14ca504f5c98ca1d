/** The first `max` UTF-16 units of `text`, never half a surrogate pair (an emoji is kept whole or left out). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
