import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AVATAR_MAX_SIDE_PX,
  type CreateUserBody,
  type UpdateUserBody,
  type User,
  type UserEventPayload,
  type UsersPage,
} from '@balcao/contracts';
import { publicFileUrl } from '../config';
import { request, requestOr } from './http';
import { storeRecordChange, type RecordSource } from './pagedList';

export const usersKeys = {
  all: ['users'] as const,
  pages: ['users', 'page'] as const,
  one: (id: number) => ['users', 'one', id] as const,
};

/** Public URL of a user's avatar (stored under the company's public folder). */
export function avatarUrl(user: { companyId: number; profileImage: string | null } | null | undefined): string | undefined {
  return user?.profileImage ? publicFileUrl(`company${user.companyId}/${user.profileImage}`) : undefined;
}

/** Does a user match a (lowercased) search as the server's list does: name or e-mail contains it. */
export function userMatches(user: Pick<User, 'name' | 'email'>, search: string): boolean {
  const s = search.trim().toLowerCase();
  return !s || user.name.toLowerCase().includes(s) || user.email.toLowerCase().includes(s);
}

/** `GET /users/` (searchParam, pageNumber) and `company-{id}-user`: the users page's list and the bot's attendant select. */
export const usersList: RecordSource<UsersPage, User, UserEventPayload<User>> = {
  key: usersKeys.pages,
  path: (search, page) => `/users/?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  one: (id) => `/users/${id}`,
  records: { get: (p) => p.users, set: (p, users) => ({ ...p, users }) },
  matches: userMatches,
  event: 'user',
  change: (payload) => (payload.action === 'delete' ? { kind: 'delete', id: payload.userId } : { kind: 'upsert', record: payload.user }),
  alsoStore: (queryClient, change) => {
    if (change.kind === 'delete') queryClient.removeQueries({ queryKey: usersKeys.one(change.id) });
    else queryClient.setQueryData(usersKeys.one(change.record.id), change.record);
  },
};

/** `GET /users/{id}`. */
export function useUserRecord(id: number | null) {
  return useQuery({
    queryKey: usersKeys.one(id ?? 0),
    queryFn: () => request<User>(`/users/${id}`),
    enabled: id !== null,
  });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CreateUserBody | UpdateUserBody }) =>
      id === null ? request<User>('/users', { method: 'POST', body }) : request<User>(`/users/${id}`, { method: 'PUT', body }),
    onSuccess: (user) => {
      queryClient.setQueryData(usersKeys.one(user.id), user);
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(`/users/${id}`, { method: 'DELETE' }),
    onSuccess: (_data, id) => storeRecordChange(queryClient, usersList, { kind: 'delete', id }),
  });
}

/**
 * Scales an image to a longest side of at most 240 px and encodes it as JPEG
 * (spec 3 §5), in the browser, before the upload.
 */
export async function scaleAvatar(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, AVATAR_MAX_SIDE_PX / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('could not encode the avatar'))), 'image/jpeg', 0.85),
  );
}

/** `POST /users/{id}/media-upload` (multipart userId, typeArch=user, profileImage): one's own avatar only. */
export async function uploadAvatar(userId: number, image: Blob): Promise<User> {
  const form = new FormData();
  form.append('userId', String(userId));
  form.append('typeArch', 'user');
  form.append('profileImage', image, 'avatar.jpg');
  const data = await request<{ user: User }>(`/users/${userId}/media-upload`, { method: 'POST', body: form });
  return data.user;
}

export interface ConnectionOption {
  id: number;
  name: string;
}

/** The company's connections for the user dialog's select (`GET /whatsapp/?session=0`). */
export function useConnectionOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['whatsapp', 'options'],
    queryFn: async () => {
      const data = await requestOr<unknown>('/whatsapp/?session=0', []);
      return Array.isArray(data) ? (data as ConnectionOption[]) : [];
    },
    enabled,
    retry: false,
  });
}
