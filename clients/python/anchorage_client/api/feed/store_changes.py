from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_page import ChangePage
from ...models.error import Error
from ...models.store_changes_stream import StoreChangesStream
from ...types import UNSET, Response, Unset


def _get_kwargs(
    store: str,
    *,
    types: str | Unset = UNSET,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreChangesStream | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["types"] = types

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
        "url": "/v1/stores/{store}/changes".format(
            store=quote(str(store), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChangePage | Error | None:
    if response.status_code == 200:
        response_200 = ChangePage.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChangePage | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    types: str | Unset = UNSET,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreChangesStream | Unset = UNSET,
) -> Response[ChangePage | Error]:
    """The samples added, objects deleted and activity summaries changed since an anchor

     One page, a long-poll (`wait`), or a live stream (`stream=ndjson` or `stream=sse`). Resume with the
    page's `newAnchor`.

    Args:
        store (str):
        types (str | Unset):
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreChangesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangePage | Error]
    """

    kwargs = _get_kwargs(
        store=store,
        types=types,
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
    store: str,
    *,
    client: AuthenticatedClient | Client,
    types: str | Unset = UNSET,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreChangesStream | Unset = UNSET,
) -> ChangePage | Error | None:
    """The samples added, objects deleted and activity summaries changed since an anchor

     One page, a long-poll (`wait`), or a live stream (`stream=ndjson` or `stream=sse`). Resume with the
    page's `newAnchor`.

    Args:
        store (str):
        types (str | Unset):
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreChangesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangePage | Error
    """

    return sync_detailed(
        store=store,
        client=client,
        types=types,
        since=since,
        limit=limit,
        wait=wait,
        stream=stream,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    types: str | Unset = UNSET,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreChangesStream | Unset = UNSET,
) -> Response[ChangePage | Error]:
    """The samples added, objects deleted and activity summaries changed since an anchor

     One page, a long-poll (`wait`), or a live stream (`stream=ndjson` or `stream=sse`). Resume with the
    page's `newAnchor`.

    Args:
        store (str):
        types (str | Unset):
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreChangesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangePage | Error]
    """

    kwargs = _get_kwargs(
        store=store,
        types=types,
        since=since,
        limit=limit,
        wait=wait,
        stream=stream,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    types: str | Unset = UNSET,
    since: str | Unset = UNSET,
    limit: int | Unset = 1000,
    wait: int | Unset = UNSET,
    stream: StoreChangesStream | Unset = UNSET,
) -> ChangePage | Error | None:
    """The samples added, objects deleted and activity summaries changed since an anchor

     One page, a long-poll (`wait`), or a live stream (`stream=ndjson` or `stream=sse`). Resume with the
    page's `newAnchor`.

    Args:
        store (str):
        types (str | Unset):
        since (str | Unset):
        limit (int | Unset):  Default: 1000.
        wait (int | Unset):
        stream (StoreChangesStream | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangePage | Error
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            types=types,
            since=since,
            limit=limit,
            wait=wait,
            stream=stream,
        )
    ).parsed
