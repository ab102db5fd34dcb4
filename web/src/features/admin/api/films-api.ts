import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ADMIN_FILMS_PAGE_SIZE,
  type addFilmSchema,
  type CreateEpisodeInput,
  type EditEpisodeInput,
  type editFilmSchema,
} from '../../../../../worker/schemas/admin';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

export interface FilmsSearch {
  page: number;
  q: string;
}

/** The admin film list: GET /api/product?page=&q= (50 per page, filtered by folded title on the server). */
export const adminFilmsQuery = ({ page, q }: FilmsSearch) =>
  queryOptions({
    queryKey: ['admin', 'films', page, q],
    queryFn: () =>
      adminCall((headers) =>
        api.api.product.$get({ query: { page: String(page), pageSize: String(ADMIN_FILMS_PAGE_SIZE), q: q || undefined } }, { headers }),
      ),
    placeholderData: (previous) => previous,
  });

/**
 * Film picker of the add-episode form. An admin searches the catalogue (GET /api/product/search, ranked);
 * a VIP2 uploader picks among the films they added (GET /api/admin/my-films), the only ones they may change.
 */
export const filmSearchQuery = (q: string, ownOnly: boolean) =>
  queryOptions({
    queryKey: ['admin', 'film-search', q, ownOnly],
    queryFn: async (): Promise<{ data: { slug: string; title: string; nameenglish: string; namphathanh: number | null }[] }> =>
      ownOnly
        ? adminCall((headers) => api.api.admin['my-films'].$get({ query: { q: q || undefined } }, { headers }))
        : adminCall((headers) => api.api.product.search.$get({ query: { q, limit: '10' } }, { headers })),
    enabled: ownOnly || q.trim().length > 0,
    staleTime: 10_000,
  });

/** The body of edit_productphim: the film by slug, then only the fields to change. */
export type FilmEditInput = z.input<typeof editFilmSchema>['data'];

/** The film list's inline row edit: the fields a row shows. */
export interface FilmEdit {
  slug: string;
  title?: string;
  nameenglish?: string;
  namphathanh?: number;
  trangthai?: string;
  sotap?: string;
  chatluong?: string;
  category_id?: number;
}

/** POST /api/product/edit_productphim { data }. */
export const editFilm = (data: FilmEditInput) =>
  adminCall((headers) => api.api.product.edit_productphim.$post({ json: { data } }, { headers }));

/** POST /api/product/edit_packageVIP1 { title, VIP1 }. */
export const setFilmVip1 = (slug: string, vip1: 0 | 1) =>
  adminCall((headers) => api.api.product.edit_packageVIP1.$post({ json: { title: slug, VIP1: vip1 } }, { headers }));

/** DELETE /api/product/delete_products { titles } (one transaction; episodes, comments, ratings go too). */
export const deleteFilms = (slugs: string[]) =>
  adminCall((headers) => api.api.product.delete_products.$delete({ json: { titles: slugs } }, { headers }));

/** POST /api/product/create_xemphim { selectedTitle, episode, linkfilm, server }. */
export const createEpisode = (input: CreateEpisodeInput) =>
  adminCall((headers) => api.api.product.create_xemphim.$post({ json: input }, { headers }));

/** The add-film form's body as the API reads it (strings from the inputs; the schema coerces). */
export type AddFilmBody = z.input<typeof addFilmSchema>;

/** POST /api/admin/addphim (admin or VIP2): success when message is 'Thêm thành công'. */
export const addFilm = (body: AddFilmBody) => adminCall((headers) => api.api.admin.addphim.$post({ json: body }, { headers }));

/** GET /api/product/admin_episodes?title= (admin or VIP2): a film's episodes on every server, with links. */
export const filmEpisodesQuery = (slug: string) =>
  queryOptions({
    queryKey: ['admin', 'episodes', slug],
    queryFn: () => adminCall((headers) => api.api.product.admin_episodes.$get({ query: { title: slug } }, { headers })),
    enabled: slug.length > 0,
  });

/** GET /api/admin/film?slug= (admin): the whole film for the editor. */
export const filmEditorQuery = (slug: string) =>
  queryOptions({
    queryKey: ['admin', 'film', slug],
    queryFn: () => adminCall((headers) => api.api.admin.film.$get({ query: { slug } }, { headers })),
  });

/** POST /api/product/edit_xemphim { id, episode?, linkfilm?, server? } (admin, or VIP2 on their own films). */
export const editEpisode = (input: EditEpisodeInput) =>
  adminCall((headers) => api.api.product.edit_xemphim.$post({ json: input }, { headers }));

/** DELETE /api/product/delete_xemphim?id= (admin). */
export const deleteEpisode = (id: number) =>
  adminCall((headers) => api.api.product.delete_xemphim.$delete({ query: { id: String(id) } }, { headers }));

/** GET /api/admin/deleted-films?page= (admin): films an admin deleted, which crawls keep out. */
export const deletedFilmsQuery = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'deleted-films', page],
    queryFn: () => adminCall((headers) => api.api.admin['deleted-films'].$get({ query: { page: String(page) } }, { headers })),
    placeholderData: (previous) => previous,
  });

/** POST /api/admin/deleted-films/{id}/restore (admin): "Khôi phục". */
export const restoreFilm = (id: number) =>
  adminCall((headers) => api.api.admin['deleted-films'][':id'].restore.$post({ param: { id: String(id) } }, { headers }));
