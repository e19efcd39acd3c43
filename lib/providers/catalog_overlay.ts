/**
 * The committed additions to the generated catalog (catalog_overlay.json): models the models.dev
 * snapshot lacks, such as the first-run defaults, with their window and prices. Loaded with the
 * catalog; the generated file is never edited by hand.
 */

/** A catalog's shape as the merge sees it (catalog.ts's `Catalog`; no import: no cycle). */
interface Listing<M extends { id: string }> {
  providers: Array<{ id: string; models: M[] }>;
}

/**
 * `catalog` with `overlay`'s models in their providers: a model of the same id (in any case) is
 * replaced, a new one added. The generated data itself is not changed: touched providers are
 * copies.
 */
export function mergeOverlay<M extends { id: string }, C extends Listing<M>>(
  catalog: C,
  overlay: Listing<M>,
): C {
  const providers = catalog.providers.map((provider) => {
    const extra = overlay.providers.find((p) => p.id === provider.id)?.models ?? [];
    if (extra.length === 0) return provider;
    const ids = new Set(extra.map((m) => m.id.toLowerCase()));
    const kept = provider.models.filter((m) => !ids.has(m.id.toLowerCase()));
    return { ...provider, models: [...kept, ...extra] };
  });
  return { ...catalog, providers };
}
