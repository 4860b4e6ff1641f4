from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.web_asset_response_200 import WebAssetResponse200
from ...types import Response


def _get_kwargs(
    asset: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/web/{asset}".format(
            asset=quote(str(asset), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | WebAssetResponse200 | None:
    if response.status_code == 200:
        response_200 = WebAssetResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | WebAssetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    asset: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Any | Error | WebAssetResponse200]:
    """A file of the web page (app.js, app.css…), embedded in the binary

     `node.json` is the node's own: its kind and whether requests need a token, which the page reads
    before anyone signs in.

    Args:
        asset (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | WebAssetResponse200]
    """

    kwargs = _get_kwargs(
        asset=asset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    asset: str,
    *,
    client: AuthenticatedClient | Client,
) -> Any | Error | WebAssetResponse200 | None:
    """A file of the web page (app.js, app.css…), embedded in the binary

     `node.json` is the node's own: its kind and whether requests need a token, which the page reads
    before anyone signs in.

    Args:
        asset (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | WebAssetResponse200
    """

    return sync_detailed(
        asset=asset,
        client=client,
    ).parsed


async def asyncio_detailed(
    asset: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Any | Error | WebAssetResponse200]:
    """A file of the web page (app.js, app.css…), embedded in the binary

     `node.json` is the node's own: its kind and whether requests need a token, which the page reads
    before anyone signs in.

    Args:
        asset (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | WebAssetResponse200]
    """

    kwargs = _get_kwargs(
        asset=asset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    asset: str,
    *,
    client: AuthenticatedClient | Client,
) -> Any | Error | WebAssetResponse200 | None:
    """A file of the web page (app.js, app.css…), embedded in the binary

     `node.json` is the node's own: its kind and whether requests need a token, which the page reads
    before anyone signs in.

    Args:
        asset (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | WebAssetResponse200
    """

    return (
        await asyncio_detailed(
            asset=asset,
            client=client,
        )
    ).parsed
