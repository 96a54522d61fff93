# ruff: noqa: E501  (data: one claim or passage a line)
"""Sixth held-out seeds for ``make_support_pairs.py`` (split ``heldout6``): model-written answers only,
written and committed before any rule change of the fifth pass, from passages used by no other split
and by no row of ``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Claims are written as a writer model answers a question about the passage ("According to the
documentation, …", "In short, …", "~에 따르면 …"): three faithful paraphrases and one perturbation a
passage (the generator adds one ``unrelated`` claim a passage).

Evidence: Python 3.11 documentation (ipaddress ip_address, collapse_addresses; What's New in 3.11
-P / PYTHONSAFEPATH, new modules tomllib and wsgiref.types; PSF License; reST markup dropped,
examples left out), 근로기준법 제37조 제1항·제3항, 제39조, 제57조, 제95조 (public domain,
저작권법 제7조; Markdown escapes dropped). Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does ipaddress.ip_address return?",
        "evidence": "ip_address(address): Return an IPv4Address or IPv6Address object depending on the IP address passed as argument. Either IPv4 or IPv6 addresses may be supplied; integers less than 2**32 will be considered to be IPv4 by default. A ValueError is raised if address does not represent a valid IPv4 or IPv6 address.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, ip_address() gives back either an IPv4Address or an IPv6Address object, depending on the address it is passed.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, if the argument is not a valid IPv4 or IPv6 address, ip_address() raises a ValueError.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "The docs note that when you pass an integer smaller than 2**32, ip_address() treats it as an IPv4 address by default.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "According to the documentation, ip_address() raises a TypeError if the address is not a valid IPv4 or IPv6 address.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does ipaddress.collapse_addresses do?",
        "evidence": "collapse_addresses(addresses): Return an iterator of the collapsed IPv4Network or IPv6Network objects. addresses is an iterator of IPv4Network or IPv6Network objects. A TypeError is raised if addresses contains mixed version objects.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, collapse_addresses() takes an iterator of IPv4Network or IPv6Network objects and returns an iterator of the collapsed networks.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, mixing IPv4 and IPv6 objects in the input makes collapse_addresses() raise a TypeError.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "The ipaddress docs say collapse_addresses() returns an iterator, not a list, of collapsed IPv4Network or IPv6Network objects.",
            ),
            (
                "model",
                "negation",
                "unsupported",
                "According to the documentation, collapse_addresses() accepts a mix of IPv4 and IPv6 network objects without raising an error.",
            ),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What do the -P option and PYTHONSAFEPATH do in Python 3.11?",
        "evidence": "Added a -P command line option and a PYTHONSAFEPATH environment variable, which disable the automatic prepending to sys.path of the script's directory when running a script, or the current directory when using -c and -m. This ensures only stdlib and installed modules are picked up by import, and avoids unintentionally or maliciously shadowing modules with those in a local (and typically user-writable) directory. (Contributed by Victor Stinner in gh-57684.)",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the What's New page, Python 3.11 added a -P command line option and a PYTHONSAFEPATH environment variable that stop the script's directory from being prepended to sys.path automatically.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, with -P or PYTHONSAFEPATH set, the current directory is no longer put on sys.path when you run python with -c or -m.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "The documentation explains that the point is to make import pick up only stdlib and installed modules, so a module in a local, typically user-writable directory cannot shadow them by accident or maliciously.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "According to the What's New page, -P and PYTHONSAFEPATH make Python prepend the script's directory to sys.path, which it did not do before.",
            ),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "Which new modules did Python 3.11 add?",
        "evidence": "New Modules: tomllib: For parsing TOML. See PEP 680 for more details. (Contributed by Taneli Hukkinen in bpo-40059.) wsgiref.types: PEP 3333 WSGI-specific types for static type checking. (Contributed by Sebastian Rittau in bpo-42012.)",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, Python 3.11 added a tomllib module for parsing TOML, described in PEP 680.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, the new wsgiref.types module provides WSGI-specific types from PEP 3333 for static type checking.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "The What's New page credits Taneli Hukkinen with contributing tomllib, in bpo-40059.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "According to the What's New page, the tomllib module was contributed by Sebastian Rittau.",
            ),
        ],
    },
    {
        "origin": KB.format("제37조 제1항, 제3항"),
        "lang": "ko",
        "question": "임금을 늦게 지급하면 지연이자를 내야 하나요?",
        "evidence": "제37조 (미지급 임금에 대한 지연이자)\n① 사용자는 다음 각 호의 어느 하나에 해당하는 임금의 전부 또는 일부를 각 호에 따른 날까지 지급하지 아니한 경우 그 다음 날부터 지급하는 날까지의 지연 일수에 대하여 연 100분의 40 이내의 범위에서 「은행법」에 따른 은행이 적용하는 연체금리 등 경제 여건을 고려하여 대통령령으로 정하는 이율에 따른 지연이자를 지급하여야 한다. <개정 2010.5.17, 2024.10.22>\n1. 제36조에 따라 지급하여야 하는 임금 및 「근로자퇴직급여 보장법」 제2조제5호에 따른 급여(일시금만 해당된다): 지급 사유가 발생한 날부터 14일이 되는 날\n2. 제43조에 따라 지급하여야 하는 임금: 제43조제2항에 따라 정하는 날\n③ 제1항은 사용자가 천재ㆍ사변, 그 밖에 대통령령으로 정하는 사유에 따라 임금 지급을 지연하는 경우 그 사유가 존속하는 기간에 대하여는 적용하지 아니한다. <개정 2024.10.22>",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제37조에 따르면 사용자가 정해진 날까지 임금을 지급하지 않으면 그 다음 날부터 지급하는 날까지의 지연 일수에 대해 지연이자를 지급해야 합니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "요약하면, 지연이자의 이율은 연 100분의 40 이내에서 은행의 연체금리 등 경제 여건을 고려하여 대통령령으로 정합니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "제37조 제3항에 따르면 천재ㆍ사변 등 대통령령으로 정하는 사유로 임금 지급이 늦어지는 경우에는 그 사유가 존속하는 기간 동안 지연이자 규정이 적용되지 않습니다.",
            ),
            (
                "model",
                "number",
                "unsupported",
                "근로기준법 제37조에 따르면 제36조에 따른 임금은 지급 사유가 발생한 날부터 30일이 되는 날까지 지급하지 않으면 지연이자가 붙습니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제39조"),
        "lang": "ko",
        "question": "퇴직한 뒤에도 회사에 경력증명서를 요구할 수 있나요?",
        "evidence": "제39조 (사용증명서)\n① 사용자는 근로자가 퇴직한 후라도 사용 기간, 업무 종류, 지위와 임금, 그 밖에 필요한 사항에 관한 증명서를 청구하면 사실대로 적은 증명서를 즉시 내주어야 한다.\n② 제1항의 증명서에는 근로자가 요구한 사항만을 적어야 한다.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제39조에 따르면 근로자가 퇴직한 뒤에도 사용 기간, 업무 종류, 지위와 임금 등에 관한 증명서를 청구하면 사용자는 사실대로 적은 증명서를 즉시 내주어야 합니다.",
            ),
            ("model", "paraphrase", "supported", "요약하면, 사용증명서에는 근로자가 요구한 사항만 적어야 합니다."),
            (
                "model",
                "paraphrase",
                "supported",
                "제39조에 따르면 퇴직한 근로자도 사용증명서를 청구할 수 있고, 사용자는 이를 즉시 발급해야 합니다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "근로기준법 제39조에 따르면 사용증명서에는 근로자가 요구하지 않았더라도 퇴직 사유를 함께 적어야 합니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제57조"),
        "lang": "ko",
        "question": "연장근로 수당 대신 휴가를 줄 수 있나요?",
        "evidence": "제57조 (보상 휴가제)\n사용자는 근로자대표와의 서면 합의에 따라 제51조의3, 제52조제2항제2호 및 제56조에 따른 연장근로ㆍ야간근로 및 휴일근로 등에 대하여 임금을 지급하는 것을 갈음하여 휴가를 줄 수 있다. <개정 2021.1.5>",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제57조에 따르면 사용자는 근로자대표와 서면으로 합의하면 연장근로ㆍ야간근로 및 휴일근로 등에 대한 임금 대신 휴가를 줄 수 있습니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "요약하면, 보상 휴가제를 시행하려면 근로자대표와의 서면 합의가 있어야 합니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "제57조에 따르면 제56조에 따른 연장ㆍ야간ㆍ휴일근로에 대해서는 임금을 지급하는 것을 갈음하여 휴가를 부여할 수 있습니다.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "근로기준법 제57조에 따르면 사용자는 근로자대표와 합의하지 않아도 연장근로에 대한 임금 대신 휴가를 줄 수 있습니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제95조"),
        "lang": "ko",
        "question": "취업규칙으로 감봉할 수 있는 한도가 있나요?",
        "evidence": "제95조 (제재 규정의 제한)\n취업규칙에서 근로자에 대하여 감급(減給)의 제재를 정할 경우에 그 감액은 1회의 금액이 평균임금의 1일분의 2분의 1을, 총액이 1임금지급기의 임금 총액의 10분의 1을 초과하지 못한다.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제95조에 따르면 취업규칙에서 감급의 제재를 정하더라도 1회의 감액은 평균임금 1일분의 2분의 1을 넘을 수 없습니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "요약하면, 감급의 총액은 1임금지급기 임금 총액의 10분의 1을 초과하지 못합니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "제95조에 따르면 취업규칙의 감급 제재에는 1회 금액과 총액 두 가지 한도가 있습니다.",
            ),
            (
                "model",
                "number",
                "unsupported",
                "근로기준법 제95조에 따르면 감급의 총액은 1임금지급기 임금 총액의 5분의 1을 초과하지 못합니다.",
            ),
        ],
    },
]
