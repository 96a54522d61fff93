"""English guards of the support check, each with the claim that fooled it and the faithful paraphrase
that must still pass: what a thing is said of another, a version given another event, the thing
compared made the one it is compared with, one alternative made the only one, and an outcome the span
gives under another condition. Passages from the Python 3.11 documentation (PSF License)."""

from __future__ import annotations

import pytest

from citewise.records.verify import Decision
from citewise.verify.cases import swapped_case
from citewise.verify.conditions import changed_version, only_one_of
from citewise.verify.roles import role_swap
from citewise.verify.support import check_support

ACCEPT = (
    "Accept a connection. The return value can be either None or a pair (conn, address) where conn is a "
    "new socket object usable to send and receive data on the connection, and address is the address bound "
    "to the socket on the other end of the connection."
)
MONOTONIC = (
    "time.monotonic() -> float: Return the value (in fractional seconds) of a monotonic clock, i.e. a clock "
    "that cannot go backwards. New in version 3.3. Changed in version 3.5: The function is now always "
    "available and always system-wide."
)
SPEED = "Python 3.11 is between 10-60% faster than Python 3.10. On average, we measured a 1.25x speedup."
NETWORK = (
    "ip_network(address, strict=True): Return an IPv4Network or IPv6Network object depending on the IP "
    "address passed as argument. Either IPv4 or IPv6 networks may be supplied."
)
DUMPS = (
    "json.dumps(obj, *, indent=None, sort_keys=False): If indent is a non-negative integer or string, then JSON "
    "array elements and object members will be "
    "pretty-printed with that indent level. If sort_keys is true (default: False), then the output of "
    "dictionaries will be sorted by key."
)


def _verdict(claim: str, page: str) -> Decision:
    return check_support(claim, "S1", page, meaning=False).decision


@pytest.mark.unit
def test_what_the_span_says_of_one_thing_said_of_another() -> None:
    fooled = (
        "In the pair returned by accept(), address is a new socket object and conn is the address of the other end."
    )
    assert swapped_case(fooled, ACCEPT) == "swapped case: the claim says of address what the span says of conn"
    assert _verdict(fooled, ACCEPT) is Decision.UNSUPPORTED
    faithful = "In the pair accept() returns, conn is a new socket object and address is the address of the other end."
    assert swapped_case(faithful, ACCEPT) is None
    assert _verdict(faithful, ACCEPT) is Decision.SUPPORTED


@pytest.mark.unit
def test_a_version_the_span_gives_another_event() -> None:
    assert changed_version("time.monotonic() was added in Python 3.5.", MONOTONIC) == (
        "changed date: the claim has it added in 3.5, the span in 3.3"
    )
    assert _verdict("time.monotonic() was added in Python 3.5.", MONOTONIC) is Decision.UNSUPPORTED
    assert changed_version("time.monotonic() was added in Python 3.3.", MONOTONIC) is None
    assert _verdict("time.monotonic() is new in version 3.3.", MONOTONIC) is (Decision.SUPPORTED)


@pytest.mark.unit
def test_the_thing_compared_made_the_one_it_is_compared_with() -> None:
    assert role_swap("Python 3.10 is between 10-60% faster than Python 3.11.", SPEED) == (
        "swapped roles: 3.10 and 3.11 change places"
    )
    assert role_swap("Python 3.11 runs 10-60% faster than 3.10.", SPEED) is None
    assert _verdict("Python 3.11 is between 10-60% faster than Python 3.10.", SPEED) is Decision.SUPPORTED


@pytest.mark.unit
def test_one_alternative_made_the_only_one() -> None:
    fooled = "ip_network accepts only IPv4 networks."
    assert only_one_of(fooled, NETWORK) == "overstated scope: the claim says only ipv4, the span also names ipv6"
    assert _verdict(fooled, NETWORK) is Decision.UNSUPPORTED
    for faithful in (
        "ip_network accepts either IPv4 or IPv6 networks.",
        "ip_network takes IPv4 as well as IPv6 networks.",
    ):
        assert only_one_of(faithful, NETWORK) is None
    # "only" about something the list does not hold is not this guard's business.
    assert only_one_of("ip_network only returns network objects.", NETWORK) is None


@pytest.mark.unit
def test_an_outcome_the_span_gives_under_another_condition() -> None:
    fooled = "json.dumps sorts dictionary keys whenever indent is set."
    assert swapped_case(fooled, DUMPS) == "changed condition: the span gives this outcome under another condition"
    assert _verdict(fooled, DUMPS) is Decision.UNSUPPORTED
    faithful = "json.dumps sorts the keys of dictionaries when sort_keys is true."
    assert swapped_case(faithful, DUMPS) is None
    assert _verdict(faithful, DUMPS) is Decision.SUPPORTED


ENTRIES = (
    "subnets(prefixlen_diff=1, new_prefix=None): The subnets that join to make the current network definition. "
    "new_prefix is the desired new prefix of the subnets; it must be larger than our prefix. Returns an iterator "
    "of network objects. supernet(prefixlen_diff=1, new_prefix=None): The supernet containing this network "
    "definition. new_prefix is the desired new prefix of the supernet; it must be smaller than our prefix. "
    "Returns a single network object."
)


@pytest.mark.unit
def test_what_one_entry_of_an_api_page_says_said_of_another() -> None:
    assert swapped_case("subnets() returns a single network object, whereas supernet() returns an iterator.", ENTRIES)
    assert swapped_case("For supernet(), the new_prefix must be larger than the current prefix.", ENTRIES)
    faithful = "supernet() returns a single network object, while subnets() returns an iterator of network objects."
    assert swapped_case(faithful, ENTRIES) is None
    assert swapped_case("For supernet(), new_prefix must be smaller than the current prefix.", ENTRIES) is None
    # A verb that happens to name an entry is not that entry.
    assert swapped_case("Results are returned as a single object when you join networks.", ENTRIES) is None


@pytest.mark.unit
def test_a_plural_in_ses_is_the_same_thing() -> None:
    span = (
        "IPv4Interface(address): The meaning of address is as in the constructor of IPv4Network, except that "
        "arbitrary host addresses are always accepted."
    )
    claim = "IPv4Interface reads its address argument as IPv4Network does, except that any host address is accepted."
    assert swapped_case(claim, span) is None
