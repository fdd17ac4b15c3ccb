// Identifiers as words a person reads, where nothing better is given: a tool without a `title`
// ("sendInvoice" → "Send invoice"), an agent without a `displayName` ("order-desk" → "Order
// desk"), a field of a tool's result ("invoiceId" → "invoice ID").

/** Words that read as capitals. */
const CAPITALS: ReadonlyMap<string, string> = new Map([
  ['id', 'ID'],
  ['ids', 'IDs'],
  ['url', 'URL'],
  ['api', 'API'],
]);

/** "sendInvoice", "get_browser_context", "order-desk" → "send invoice", "get browser context", "order desk". */
export function identifierWords(identifier: string): string {
  const words = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((word) => CAPITALS.get(word.toLowerCase()) ?? word.toLowerCase());
  return words.length > 0 ? words.join(' ') : identifier;
}

/** The words with a capital first letter, as a title or a sentence's start: "Send invoice". */
export function readableName(identifier: string): string {
  return capitalized(identifierWords(identifier));
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
