/**
 * Checks that text is well-formed XML: one root element, every tag closed in
 * order, attributes quoted, `&` only in entity references, no stray `<`.
 * Returns the problems found (empty when well-formed) and the elements seen.
 *
 * @example
 * ```ts
 * expect(checkXml(svg).problems).toEqual([]);
 * ```
 */
export function checkXml(text: string): { problems: string[]; elements: string[] } {
  const problems: string[] = [];
  const elements: string[] = [];
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  const entity = /&(?:#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);/y;
  let roots = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '<') {
      tag.lastIndex = i;
      const m = tag.exec(text);
      if (m === null) {
        problems.push(`malformed tag at ${i}: ${text.slice(i, i + 40)}`);
        break;
      }
      const [whole, closing, name, , selfClosing] = m as unknown as [string, string, string, string, string];
      if (closing) {
        const open = stack.pop();
        if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
      } else {
        elements.push(name);
        if (stack.length === 0) roots++;
        if (!selfClosing) stack.push(name);
      }
      i += whole.length;
    } else if (c === '&') {
      entity.lastIndex = i;
      const m = entity.exec(text);
      if (m === null) problems.push(`bare & at ${i}`);
      i += m === null ? 1 : m[0].length;
    } else {
      if (stack.length === 0 && c !== undefined && c.trim() !== '') problems.push(`text outside the root at ${i}`);
      i++;
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(' > ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return { problems, elements };
}
