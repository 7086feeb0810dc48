import { lazy, type FunctionComponent, type LazyExoticComponent } from 'react';

/** A screen loaded on first render from its own chunk (`React.lazy` wants a default export; pages export by name). */
export function lazyPage<P extends object>(load: () => Promise<FunctionComponent<P>>): LazyExoticComponent<FunctionComponent<P>> {
  return lazy(async () => ({ default: await load() }));
}
