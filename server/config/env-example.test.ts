// .env.example is written from server/config/: a variable declared, changed or described anew
// there and not written out fails here, until `npm run env:example` writes the file again.
import { describe, expect, it } from 'vitest';
import { renderEnvExample } from './env-example';

describe('.env.example', () => {
  it('is what server/config/ declares (npm run env:example writes it)', async () => {
    await expect(renderEnvExample()).toMatchFileSnapshot('../../.env.example', '.env.example is out of date: run `npm run env:example`');
  });
});
