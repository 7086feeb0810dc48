/** The YouTube id of a help's video code: the code itself, or the id inside a pasted address. */
export function youtubeId(code: string | null | undefined): string | null {
  const value = (code ?? '').trim();
  if (!value) return null;
  const fromUrl = /(?:youtu\.be\/|[?&]v=|\/embed\/|\/shorts\/)([\w-]{6,})/.exec(value);
  if (fromUrl?.[1]) return fromUrl[1];
  return /^[\w-]+$/.test(value) ? value : null;
}

export function embedUrl(code: string | null | undefined): string | null {
  const id = youtubeId(code);
  return id ? `https://www.youtube.com/embed/${id}?autoplay=1` : null;
}

export function thumbnailUrl(code: string | null | undefined): string | null {
  const id = youtubeId(code);
  return id ? `https://img.youtube.com/vi/${id}/hqdefault.jpg` : null;
}
