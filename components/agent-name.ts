// An agent as a person names it: its display name, or its id with a capital letter.
export function displayNameOf(agent: { name: string; displayName?: string }): string {
  return agent.displayName ?? agent.name.charAt(0).toUpperCase() + agent.name.slice(1);
}
