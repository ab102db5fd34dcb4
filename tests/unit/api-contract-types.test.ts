// The wire contract, checked by the compiler: what each route answers (inferred from AppType, the type
// the web's hc client is built on) must be exactly the shared type in worker/schemas/. Renaming a field
// in a route's answer, a service's result or a schema fails `npm run typecheck` here (tsconfig.json
// includes tests/), and the web, which reads these inferred types through unwrap(), fails with it.
import type { ClientResponse, hc, InferResponseType } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { describe, expectTypeOf, it } from 'vitest';
import { unwrap } from '../../web/src/lib/api-client';
import type { AccountResponse } from '../../worker/schemas/account';
import type { AppType } from '../../worker/app';
import type { LoginResponse, RefreshResponse } from '../../worker/schemas/auth';
import type {
  EpisodeResponse,
  FilmCard,
  FilmDetailResponse,
  HomeData,
  HomeTopData,
  Paginated,
  SearchResults,
} from '../../worker/schemas/catalogue';
import type { CommentDto, CommentsSinceResponse } from '../../worker/schemas/comments';
import type { RateFilmResult } from '../../worker/schemas/ratings';

type Api = ReturnType<typeof hc<AppType>>['api'];
type Product = Api['product'];
/** The body a route answers with a 2xx, as the web's client sees it. */
type Body<F> = InferResponseType<F, SuccessStatusCode>;

describe('wire contract types', () => {
  it('catalogue routes answer the catalogue schema types', () => {
    expectTypeOf<Body<Product['product-home']['$get']>>().toEqualTypeOf<HomeData>();
    expectTypeOf<Body<Product['home-top']['$get']>>().toEqualTypeOf<HomeTopData>();
    expectTypeOf<Body<Product[':listing{product-[a-z0-9+-]+}']['$get']>>().toEqualTypeOf<Paginated<FilmCard>>();
    expectTypeOf<Body<Product['search']['$get']>>().toEqualTypeOf<SearchResults>();
    expectTypeOf<Body<Product[':slug']['$get']>>().toEqualTypeOf<FilmDetailResponse>();
    expectTypeOf<Body<Product[':slug'][':episode']['$get']>>().toEqualTypeOf<EpisodeResponse>();
  });

  it('comment and rating routes answer the comment and rating schema types', () => {
    expectTypeOf<Body<Product['comment']['$post']>>().toEqualTypeOf<CommentDto>();
    expectTypeOf<Body<Product[':slug']['comments']['$get']>>().toEqualTypeOf<CommentsSinceResponse>();
    expectTypeOf<Body<Product['rating_star']['$post']>>().toEqualTypeOf<RateFilmResult>();
  });

  it('auth and account routes answer the auth and account schema types', () => {
    expectTypeOf<Body<Api['dang-nhap']['$post']>>().toEqualTypeOf<LoginResponse>();
    expectTypeOf<Body<Api['refresh_token']['$post']>>().toEqualTypeOf<RefreshResponse>();
    expectTypeOf<Body<Api['account']['$get']>>().toEqualTypeOf<AccountResponse>();
    expectTypeOf<Body<Api['account']['password']['$post']>>().toMatchTypeOf<LoginResponse & { message: string }>();
  });

  it("unwrap resolves to the route's body with no type written at the call", () => {
    type HomeCall = ReturnType<Product['product-home']['$get']>;
    expectTypeOf<HomeCall>().toEqualTypeOf<Promise<ClientResponse<HomeData, 200, 'json'>>>();
    // Never called: only its inferred return type matters.
    const homeBody = (call: HomeCall) => unwrap(call);
    expectTypeOf<ReturnType<typeof homeBody>>().toEqualTypeOf<Promise<HomeData>>();
  });
});
