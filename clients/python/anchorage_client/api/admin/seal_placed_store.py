from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.seal_placed_store_response_202 import SealPlacedStoreResponse202
from ...types import Response


def _get_kwargs(
    store: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/stores/{store}/seal".format(
            store=quote(str(store), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SealPlacedStoreResponse202 | None:
    if response.status_code == 202:
        response_202 = SealPlacedStoreResponse202.from_dict(response.json())

        return response_202

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SealPlacedStoreResponse202]:
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
) -> Response[Error | SealPlacedStoreResponse202]:
    """Seals every copy of a store placed before the fleet sealed

     The fleet's administrator, through any node (forwarded to the controller), once every node runs with
    --seal and the fleet's wrapping key. The controller names a new data key id in the store's
    placement; every node then seals each copy it holds (closed for that moment: its requests are
    answered 503 keyUnavailable with Retry-After), deterministically, so every copy gets the same bytes,
    and starts it again. A store sealed already is 409; a fleet that does not seal 400.

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SealPlacedStoreResponse202]
    """

    kwargs = _get_kwargs(
        store=store,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    store: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | SealPlacedStoreResponse202 | None:
    """Seals every copy of a store placed before the fleet sealed

     The fleet's administrator, through any node (forwarded to the controller), once every node runs with
    --seal and the fleet's wrapping key. The controller names a new data key id in the store's
    placement; every node then seals each copy it holds (closed for that moment: its requests are
    answered 503 keyUnavailable with Retry-After), deterministically, so every copy gets the same bytes,
    and starts it again. A store sealed already is 409; a fleet that does not seal 400.

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SealPlacedStoreResponse202
    """

    return sync_detailed(
        store=store,
        client=client,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | SealPlacedStoreResponse202]:
    """Seals every copy of a store placed before the fleet sealed

     The fleet's administrator, through any node (forwarded to the controller), once every node runs with
    --seal and the fleet's wrapping key. The controller names a new data key id in the store's
    placement; every node then seals each copy it holds (closed for that moment: its requests are
    answered 503 keyUnavailable with Retry-After), deterministically, so every copy gets the same bytes,
    and starts it again. A store sealed already is 409; a fleet that does not seal 400.

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SealPlacedStoreResponse202]
    """

    kwargs = _get_kwargs(
        store=store,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | SealPlacedStoreResponse202 | None:
    """Seals every copy of a store placed before the fleet sealed

     The fleet's administrator, through any node (forwarded to the controller), once every node runs with
    --seal and the fleet's wrapping key. The controller names a new data key id in the store's
    placement; every node then seals each copy it holds (closed for that moment: its requests are
    answered 503 keyUnavailable with Retry-After), deterministically, so every copy gets the same bytes,
    and starts it again. A store sealed already is 409; a fleet that does not seal 400.

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SealPlacedStoreResponse202
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
        )
    ).parsed
