// Which cited pages the chat links (components/sources-list.tsx): only http(s), each named by its site.
import { describe, expect, it } from 'vitest';
import { siteOf } from './sources-list';

describe('the chat’s sources list', () => {
  it('links only http(s) pages, each named by its site', () => {
    expect(siteOf('https://www.example.com/a?b=1')).toBe('example.com');
    expect(siteOf('http://docs.ag-ui.com/x')).toBe('docs.ag-ui.com');
    expect(siteOf('javascript:alert(1)')).toBeNull();
    expect(siteOf('data:text/html,hi')).toBeNull();
    expect(siteOf('not a url')).toBeNull();
  });
});
