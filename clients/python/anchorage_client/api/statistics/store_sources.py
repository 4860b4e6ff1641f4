from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_sources_response_200 import StoreSourcesResponse200
from ...types import UNSET, Response


def _get_kwargs(
    store: str,
    *,
    type_: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["type"] = type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/stores/{store}/sources".format(
            store=quote(str(store), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreSourcesResponse200 | None:
    if response.status_code == 200:
        response_200 = StoreSourcesResponse200.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StoreSourcesResponse200]:
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
    type_: str,
) -> Response[Error | StoreSourcesResponse200]:
    """The sources that saved samples of a type

    Args:
        store (str):
        type_ (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSourcesResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        type_=type_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    type_: str,
) -> Error | StoreSourcesResponse200 | None:
    """The sources that saved samples of a type

    Args:
        store (str):
        type_ (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSourcesResponse200
    """

    return sync_detailed(
        store=store,
        client=client,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    type_: str,
) -> Response[Error | StoreSourcesResponse200]:
    """The sources that saved samples of a type

    Args:
        store (str):
        type_ (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSourcesResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    type_: str,
) -> Error | StoreSourcesResponse200 | None:
    """The sources that saved samples of a type

    Args:
        store (str):
        type_ (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSourcesResponse200
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            type_=type_,
        )
    ).parsed
