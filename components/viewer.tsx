'use client';
// Who is looking at the app, as the server found it for this page (docs/security.md): whether
// they hold an API key decides if an approval kept for key holders shows its buttons.
import { createContext, useContext } from 'react';

export interface Viewer {
  /** An API key (signed in with one), or the local owner of open dev mode. */
  keyHolder: boolean;
}

export const ViewerContext = createContext<Viewer>({ keyHolder: true });

export function useViewer(): Viewer {
  return useContext(ViewerContext);
}
