import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileList, FileListPage, ListEventPayload, SaveFileListBody } from '@balcao/contracts';
import { request } from './http';
import { listChange } from './liveEvents';
import { storeRecordChange, type RecordSource } from './pagedList';

/** `GET /files/` (searchParam, pageNumber) and `company-{id}-file`: the /files list and the selects of file lists. */
export const fileListPages: RecordSource<FileListPage, FileList, ListEventPayload<FileList>> = {
  key: ['fileLists', 'page'],
  path: (search, page) => `/files/?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  one: (id) => `/files/${id}`,
  records: { get: (p) => p.files, set: (p, files) => ({ ...p, files }) },
  matches: (record, search) => record.name.toLowerCase().includes(search.trim().toLowerCase()),
  event: 'file',
  change: listChange,
};

export interface SaveFileListInput {
  id: number | null;
  body: SaveFileListBody;
  /** The file chosen for each option of `body.options`, by position (null: keep or none). */
  files: (File | null)[];
}

/**
 * `POST /files` or `PUT /files/{id}`, then `POST /files/uploadList/{id}` with the chosen files. The
 * answer lists kept options first (by id) and the new ones after, in the order they were sent.
 */
export function useSaveFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body, files }: SaveFileListInput) => {
      const saved = await request<FileList>(id === null ? '/files' : `/files/${id}`, { method: id === null ? 'POST' : 'PUT', body });
      const keptIds = new Set((body.options ?? []).flatMap((o) => (o.id ? [o.id] : [])));
      const fresh = saved.options.filter((o) => !keptIds.has(o.id));
      let nextFresh = 0;
      const optionIds = (body.options ?? []).map((o) => o.id ?? fresh[nextFresh++]?.id);
      const form = new FormData();
      form.append('fileId', String(saved.id));
      form.append('typeArch', 'fileList');
      let any = false;
      files.forEach((file, i) => {
        const optionId = optionIds[i];
        if (!file || !optionId) return;
        any = true;
        form.append('files', file, file.name);
        form.append('mediaType', file.type.split('/')[0] ?? 'application');
        form.append('name', body.options?.[i]?.name ?? file.name);
        form.append('id', String(optionId));
      });
      return any ? request<FileList>(`/files/uploadList/${saved.id}`, { method: 'POST', body: form }) : saved;
    },
    onSuccess: (record) => storeRecordChange(queryClient, fileListPages, { kind: 'upsert', record }),
  });
}

export function useDeleteFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/files/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, fileListPages, { kind: 'delete', id }),
  });
}
