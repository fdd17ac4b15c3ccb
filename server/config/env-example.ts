// .env.example, written from the declarations (index.ts): a heading, then each group with its
// comment and each variable with its description, wrapped as a person would.
import { GROUPS } from './index';

const WIDTH = 100;

/** `text` as comment lines of at most WIDTH characters (a longer word stays whole). */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** The text of .env.example. */
export function renderEnvExample(): string {
  const lines = [
    ...comment('Every variable Stackbone reads, with its default. Copy to .env.local to change one.'),
    ...comment('Written by `npm run env:example` from server/config/: change a description there, not here.'),
  ];
  for (const { about, variables } of GROUPS) {
    lines.push('', ...comment(about));
    for (const [name, variable] of Object.entries(variables)) lines.push(...comment(variable.description), `${name}=${variable.example}`);
  }
  return `${lines.join('\n')}\n`;
}
