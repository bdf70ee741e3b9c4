import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleConfig, SessionUser } from './schemas';

export interface SessionValue {
  user: SessionUser;
  config: ConsoleConfig;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The signed-in user; only pages under the signed-in layout call it. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the signed-in layout');
  return value;
}
