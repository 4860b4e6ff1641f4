from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_list_webhooks_response_200 import StoreListWebhooksResponse200
from ...types import Response


def _get_kwargs(
    store: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/stores/{store}/webhooks".format(
            store=quote(str(store), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreListWebhooksResponse200 | None:
    if response.status_code == 200:
        response_200 = StoreListWebhooksResponse200.from_dict(response.json())

        return response_200

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StoreListWebhooksResponse200]:
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
) -> Response[Error | StoreListWebhooksResponse200]:
    """The token's webhooks and their delivery state

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreListWebhooksResponse200]
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
) -> Error | StoreListWebhooksResponse200 | None:
    """The token's webhooks and their delivery state

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreListWebhooksResponse200
    """

    return sync_detailed(
        store=store,
        client=client,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | StoreListWebhooksResponse200]:
    """The token's webhooks and their delivery state

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreListWebhooksResponse200]
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
) -> Error | StoreListWebhooksResponse200 | None:
    """The token's webhooks and their delivery state

    Args:
        store (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreListWebhooksResponse200
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
        )
    ).parsed
