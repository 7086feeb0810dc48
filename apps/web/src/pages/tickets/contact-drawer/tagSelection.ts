import { TAG_NAME_MAX, TAG_NAME_MIN, type SyncTagsBody } from '@balcao/contracts';

export interface TagRef {
  id: number;
  name: string;
  color: string;
}

/** The "create a tag" entry offered in the options while typing a name no tag has. */
export interface NewTagOption {
  newName: string;
}

/** What the tags field may hold: a known tag, a name typed and confirmed (free solo), or the create entry. */
export type TagChoice = TagRef | NewTagOption | string;

export type SyncTag = SyncTagsBody['tags'][number];

export type TagSelection = { ok: true; tags: SyncTag[] } | { ok: false; tooShort: string };

const key = (name: string) => name.trim().toLocaleLowerCase();

export function isNewTagOption(choice: TagChoice): choice is NewTagOption {
  return typeof choice === 'object' && 'newName' in choice;
}

/**
 * The tag list to sync after the field changed: typed names that match a
 * known tag (case-insensitive) become that tag, others become new tags; a
 * new name under 3 characters rejects the whole change (spec 2 §5 'Tag muito
 * curta!'); duplicates are dropped.
 */
export function resolveTagSelection(choices: readonly TagChoice[], known: readonly TagRef[]): TagSelection {
  const byName = new Map(known.map((t) => [key(t.name), t]));
  const tags: SyncTag[] = [];
  const seen = new Set<string>();
  for (const choice of choices) {
    let tag: SyncTag;
    if (typeof choice === 'string' || isNewTagOption(choice)) {
      const name = (typeof choice === 'string' ? choice : choice.newName).trim().slice(0, TAG_NAME_MAX);
      if (!name) continue;
      const existing = byName.get(key(name));
      if (existing) tag = { id: existing.id, name: existing.name, color: existing.color };
      else if (name.length < TAG_NAME_MIN) return { ok: false, tooShort: name };
      else tag = { name };
    } else {
      tag = { id: choice.id, name: choice.name, color: choice.color };
    }
    const id = tag.id !== undefined ? `#${tag.id}` : key(tag.name);
    if (seen.has(id) || seen.has(key(tag.name))) continue;
    seen.add(id);
    seen.add(key(tag.name));
    tags.push(tag);
  }
  return { ok: true, tags };
}

/** The create entry to append to the filtered options: only for a typed name no known tag has. */
export function newTagOption(input: string, known: readonly TagRef[]): NewTagOption | null {
  const name = input.trim();
  if (!name || known.some((t) => key(t.name) === key(name))) return null;
  return { newName: name };
}

/** Black or white text, whichever reads better on the tag's colour (`#rrggbb`; anything else gets white). */
export function tagTextColor(background: string): '#000' | '#fff' {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(background.trim());
  if (!m) return '#fff';
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h ?? '0', 16) / 255) as [number, number, number];
  // Perceived brightness (ITU-R BT.601 weights).
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.6 ? '#000' : '#fff';
}

/** Whether a resolved selection is what the contact already has (then there is nothing to sync). */
export function sameTagSet(tags: readonly SyncTag[], current: readonly TagRef[]): boolean {
  if (tags.length !== current.length || tags.some((t) => t.id === undefined)) return false;
  const ids = new Set(current.map((t) => t.id));
  return tags.every((t) => t.id !== undefined && ids.has(t.id));
}
