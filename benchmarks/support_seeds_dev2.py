# ruff: noqa: E501  (data: one claim or passage a line)
"""More development seeds for ``make_support_pairs.py`` (split ``dev``, ids ``dev2-…``): new claims
on the passages of ``support_seeds_dev.py``, mostly answer-style ones, with the kind ``addition``
(an answer that restates the passage and adds a detail it does not state) that the first dev
seeds lack. Rules may be tuned on these. Each claim: (set, kind, label, claim).
"""

from support_seeds_dev import SEEDS as _DEV

_CLAIMS = [
    [
        (
            "model",
            "paraphrase",
            "supported",
            "urllib.parse gives a standard interface for splitting URL strings into parts such as the scheme, network location and path, and for joining those parts back together.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "urllib.parse breaks URLs into components and also downloads the resource a URL points to.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "The module splits URL strings into components and checks each component against the IANA registry.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "Every item of the tuple urlparse returns is a string, which may be empty.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "urlparse returns a 6-item named tuple, and its items are converted to lowercase.",
        ),
        (
            "model",
            "role_swap",
            "unsupported",
            "The network location is split into smaller parts, while % escapes are expanded.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "The classes in http.client implement the client side of HTTP and HTTPS; usually urllib.request uses the module rather than programs calling it directly.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "http.client implements the client side of HTTP and HTTPS and also provides a small HTTP server for testing.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "HTTPSConnection is the subclass of HTTPConnection that talks to secure servers over SSL, on port 443 unless told otherwise.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "HTTPSConnection uses SSL for secure servers and verifies certificates against the system store by default.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "HTTPSConnection defaults to port 443 and falls back to port 80 when SSL fails.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "With the default level of 0 nothing is printed for debugging; any higher value prints all debug output currently defined to stdout.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "The default debug level is 0, and levels above 0 write the debug output to a log file.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "strict_parsing says what happens on parsing errors: by default they are silently ignored, and when it is true they raise ValueError.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "If strict_parsing is true, errors raise a ValueError exception that carries the position of the bad character.",
        ),
    ],
    [
        ("model", "paraphrase", "supported", "임금은 한 달에 한 번 이상, 날짜를 정해서 주어야 합니다."),
        (
            "model",
            "addition",
            "unsupported",
            "임금은 통화로 직접 근로자에게 전액 지급해야 하며, 계좌이체로 지급할 때에는 근로자의 서면 동의가 필요합니다.",
        ),
        ("model", "role_swap", "unsupported", "근로자는 임금을 통화로 직접 사용자에게 그 전액을 지급하여야 합니다."),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "사용자는 근로자에게 일주일에 평균 한 번 이상 유급휴일을 보장해야 합니다.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "사용자는 1주에 평균 1회 이상의 유급휴일을 보장해야 하고, 휴일에 일하면 통상임금의 2배를 줘야 합니다.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "밤 10시부터 다음 날 아침 6시 사이에 일하면 통상임금의 절반 이상을 더 받습니다.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "연장근로에는 통상임금의 100분의 50 이상을 가산해야 하고, 이 가산금은 다음 달 월급날까지 지급해야 합니다.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "출산이나 질병 같은 비상한 경우의 비용 때문에 근로자가 청구하면, 사용자는 지급기일 전이라도 이미 일한 만큼의 임금을 줘야 합니다.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "비상한 경우 근로자가 청구하면 사용자는 지급기일 전이라도 임금을 지급해야 하며, 그 한도는 월급의 절반입니다.",
        ),
    ],
    [
        (
            "model",
            "paraphrase",
            "supported",
            "근로계약을 맺을 때 사용자는 임금, 소정근로시간, 휴일과 연차 유급휴가를 근로자에게 명시해야 합니다.",
        ),
        (
            "model",
            "addition",
            "unsupported",
            "사용자는 근로계약을 체결할 때 임금과 소정근로시간을 명시해야 하며, 근로계약서는 반드시 공증을 받아야 합니다.",
        ),
    ],
    [
        ("model", "paraphrase", "supported", "임신한 여성에게는 출산 전후를 합쳐 90일의 출산전후휴가를 주어야 합니다."),
        ("model", "addition", "unsupported", "출산전후휴가는 90일이며, 그 가운데 처음 60일은 유급입니다."),
        ("model", "role_swap", "unsupported", "휴가 기간의 배정은 출산 전에 45일 이상이 되어야 합니다."),
    ],
]

SEEDS = [dict(seed, claims=claims) for seed, claims in zip(_DEV, _CLAIMS, strict=True)]
