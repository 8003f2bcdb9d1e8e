/**
 * Whether `text` holds a C0 control character (U+0000–U+001F) not in `except`, or DEL (U+007F) when
 * `del` is set. A loop, not a regular expression: the set cannot be written in one without raw
 * control characters or the `v` flag, which old phones' browsers (this runs there too) do not know.
 */
export function hasControlCharacter(text: string, { except = "", del = true }: { except?: string; del?: boolean } = {}): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 ? !except.includes(text[i]!) : del && code === 0x7f) return true;
  }
  return false;
}
