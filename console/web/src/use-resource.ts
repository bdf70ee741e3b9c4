import { useCallback, useEffect, useState } from 'react';
import type * as z from 'zod/mini';
import { call, isAbort } from './api';

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

interface Loaded<T> {
  key: string;
  /** The path the data belongs to: a reload keeps showing the old data until the new answer arrives. */
  path: string;
  data?: T;
  error?: unknown;
}

/** One GET, reloaded when `path` changes or on demand; a null path loads nothing. */
export function useResource<T>(path: string | null, schema: z.ZodMiniType<T>): Resource<T> {
  const [generation, setGeneration] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const key = `${generation}|${path ?? ''}`;

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    call(path, schema, { signal: controller.signal }).then(
      (data) => setLoaded({ key, path, data }),
      (error: unknown) => {
        if (!isAbort(error)) setLoaded({ key, path, error });
      },
    );
    return () => controller.abort();
  }, [key, path, schema]);

  const samePath = loaded !== null && loaded.path === path;
  return {
    data: samePath ? loaded.data : undefined,
    error: loaded?.key === key ? loaded.error : undefined,
    loading: path !== null && loaded?.key !== key,
    reload,
  };
}
