from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_updates_page import StoreUpdatesPage
from ...models.store_updates_stream import StoreUpdatesStream
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreUpdatesStream | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["since"] = since

    params["limit"] = limit

    params["wait"] = wait

    json_stream: str | Unset = UNSET
    if not isinstance(stream, Unset):
        json_stream = stream.value

    params["stream"] = json_stream

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/store-updates",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreUpdatesPage | None:
    if response.status_code == 200:
        response_200 = StoreUpdatesPage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StoreUpdatesPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreUpdatesStream | Unset = UNSET,
) -> Response[Error | StoreUpdatesPage]:
    """Which of the node's (or the fleet's) stores changed, from which anchor to which, after a cursor

     One feed across every store (docs/http-api.md, "One feed across every store"): a page, a long-poll
    (`wait`) or a stream (`stream=ndjson` or `stream=sse`), resumed by the feed's own cursor. Each
    update names a store and its anchors, never a health value; a store's updates chain (each `since` is
    the previous `anchor`). On a multi-store node, for its administrator and its consumers' tokens
    (`anchorage tokens issue --consumer`); a store's token is 403. On a fleet node, the whole fleet's
    feed in one order (etcd's), the same on every node, for the fleet's secret: read from no cursor, it
    lists every store at its last anchor (`since` null) first; a cursor whose history etcd compacted
    away is `410 cursorExpired` (read it from the beginning again); etcd out of reach is `503
    fleetUnavailable`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreUpdatesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreUpdatesPage]
    """

    kwargs = _get_kwargs(
        since=since,
        limit=limit,
        wait=wait,
        stream=stream,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreUpdatesStream | Unset = UNSET,
) -> Error | StoreUpdatesPage | None:
    """Which of the node's (or the fleet's) stores changed, from which anchor to which, after a cursor

     One feed across every store (docs/http-api.md, "One feed across every store"): a page, a long-poll
    (`wait`) or a stream (`stream=ndjson` or `stream=sse`), resumed by the feed's own cursor. Each
    update names a store and its anchors, never a health value; a store's updates chain (each `since` is
    the previous `anchor`). On a multi-store node, for its administrator and its consumers' tokens
    (`anchorage tokens issue --consumer`); a store's token is 403. On a fleet node, the whole fleet's
    feed in one order (etcd's), the same on every node, for the fleet's secret: read from no cursor, it
    lists every store at its last anchor (`since` null) first; a cursor whose history etcd compacted
    away is `410 cursorExpired` (read it from the beginning again); etcd out of reach is `503
    fleetUnavailable`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreUpdatesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreUpdatesPage
    """

    return sync_detailed(
        client=client,
        since=since,
        limit=limit,
        wait=wait,
        stream=stream,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreUpdatesStream | Unset = UNSET,
) -> Response[Error | StoreUpdatesPage]:
    """Which of the node's (or the fleet's) stores changed, from which anchor to which, after a cursor

     One feed across every store (docs/http-api.md, "One feed across every store"): a page, a long-poll
    (`wait`) or a stream (`stream=ndjson` or `stream=sse`), resumed by the feed's own cursor. Each
    update names a store and its anchors, never a health value; a store's updates chain (each `since` is
    the previous `anchor`). On a multi-store node, for its administrator and its consumers' tokens
    (`anchorage tokens issue --consumer`); a store's token is 403. On a fleet node, the whole fleet's
    feed in one order (etcd's), the same on every node, for the fleet's secret: read from no cursor, it
    lists every store at its last anchor (`since` null) first; a cursor whose history etcd compacted
    away is `410 cursorExpired` (read it from the beginning again); etcd out of reach is `503
    fleetUnavailable`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreUpdatesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreUpdatesPage]
    """

    kwargs = _get_kwargs(
        since=since,
        limit=limit,
        wait=wait,
        stream=stream,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreUpdatesStream | Unset = UNSET,
) -> Error | StoreUpdatesPage | None:
    """Which of the node's (or the fleet's) stores changed, from which anchor to which, after a cursor

     One feed across every store (docs/http-api.md, "One feed across every store"): a page, a long-poll
    (`wait`) or a stream (`stream=ndjson` or `stream=sse`), resumed by the feed's own cursor. Each
    update names a store and its anchors, never a health value; a store's updates chain (each `since` is
    the previous `anchor`). On a multi-store node, for its administrator and its consumers' tokens
    (`anchorage tokens issue --consumer`); a store's token is 403. On a fleet node, the whole fleet's
    feed in one order (etcd's), the same on every node, for the fleet's secret: read from no cursor, it
    lists every store at its last anchor (`since` null) first; a cursor whose history etcd compacted
    away is `410 cursorExpired` (read it from the beginning again); etcd out of reach is `503
    fleetUnavailable`.

    Args:
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreUpdatesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreUpdatesPage
    """

    return (
        await asyncio_detailed(
            client=client,
            since=since,
            limit=limit,
            wait=wait,
            stream=stream,
        )
    ).parsed
