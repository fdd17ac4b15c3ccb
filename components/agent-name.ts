// The name a person reads for an agent: its display name when it has one, else its code name
// made readable ("order-desk" → "Order desk").
export function displayNameOf(card: { name: string; displayName?: string }): string {
  const given = card.displayName?.trim();
  if (given) return given;
  const words = card.name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
