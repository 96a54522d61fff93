# ruff: noqa: E501  (data: one claim or passage a line)
"""Eighth held-out seeds for ``make_support_pairs.py`` (split ``heldout8``): written and committed
before any rule change of the seventh pass, from passages used by no other split and by no row of
``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Weighted to role swaps (parties traded across a clause, a containment or comparison turned round,
source/target, before/after, 근로자/사용자, 임차인/양수인, 친권자/미성년자), with faithful paraphrases
beside them, among them faithful reorderings (a passive for an active, the parties named in another
order with their roles kept); the generator adds one ``unrelated`` claim a passage.

Evidence: Python 3.11 documentation (ipaddress IPv4Network.address_exclude, subnet_of,
supernet_of; http.client HTTPConnection.putrequest; PSF License; reST markup dropped, examples left
out), 근로기준법 제19조, 제67조, 주택임대차보호법 제3조의2 제2항·제3항 (public domain, 저작권법
제7조; Markdown escapes dropped). Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
HL = "주택임대차보호법 {} (법률, 2015-01-06, MST166548; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does IPv4Network.address_exclude do?",
        "evidence": "address_exclude(network): Computes the network definitions resulting from removing the given network from this one. Returns an iterator of network objects. Raises ValueError if network is not completely contained in this network.",
        "claims": [
            ("human", "paraphrase", "supported", "address_exclude() removes the given network from this one and returns an iterator of the networks that are left."),
            ("model", "paraphrase", "supported", "According to the docs, a ValueError is raised by address_exclude() when the network passed in is not completely contained in the network the method is called on."),
            ("model", "role_swap", "unsupported", "According to the docs, address_exclude() raises ValueError if this network is not completely contained in the given network."),
            ("human", "role_swap", "unsupported", "address_exclude() removes this network from the given network and returns an iterator of what remains."),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What do subnet_of and supernet_of return?",
        "evidence": "subnet_of(other): Return True if this network is a subnet of other. New in version 3.7. supernet_of(other): Return True if this network is a supernet of other. New in version 3.7.",
        "claims": [
            ("human", "paraphrase", "supported", "supernet_of(other) returns True when this network is a supernet of other."),
            ("model", "paraphrase", "supported", "Since Python 3.7, subnet_of(other) tells you whether the network it is called on is a subnet of other, returning True if so."),
            ("human", "role_swap", "unsupported", "subnet_of(other) returns True if other is a subnet of this network."),
            ("model", "role_swap", "unsupported", "In short, supernet_of(other) returns True when the other network is a supernet of this network."),
        ],
    },
    {
        "origin": PY.format("library/http.client.rst"),
        "lang": "en",
        "question": "What does HTTPConnection.putrequest send?",
        "evidence": "HTTPConnection.putrequest(method, url, skip_host=False, skip_accept_encoding=False): This should be the first call after the connection to the server has been made. It sends a line to the server consisting of the method string, the url string, and the HTTP version (HTTP/1.1). To disable automatic sending of Host: or Accept-Encoding: headers (for example to accept additional content encodings), specify skip_host or skip_accept_encoding with non-False values.",
        "claims": [
            ("human", "paraphrase", "supported", "putrequest() sends the server a line made of the method string, the url string and the HTTP version."),
            ("model", "paraphrase", "supported", "The documentation says the connection to the server should be made first, and putrequest() should be the first call after that."),
            ("model", "role_swap", "unsupported", "According to the docs, putrequest() receives a line from the server consisting of the method string, the url string and the HTTP version."),
            ("human", "role_swap", "unsupported", "putrequest() should be the first call, and the connection to the server should be made after it."),
        ],
    },
    {
        "origin": KB.format("제19조"),
        "lang": "ko",
        "question": "명시된 근로조건이 사실과 다르면 어떻게 되나요?",
        "evidence": "제19조 (근로조건의 위반) ① 제17조에 따라 명시된 근로조건이 사실과 다를 경우에 근로자는 근로조건 위반을 이유로 손해의 배상을 청구할 수 있으며 즉시 근로계약을 해제할 수 있다. ② 제1항에 따라 근로자가 손해배상을 청구할 경우에는 노동위원회에 신청할 수 있으며, 근로계약이 해제되었을 경우에는 사용자는 취업을 목적으로 거주를 변경하는 근로자에게 귀향 여비를 지급하여야 한다.",
        "claims": [
            ("human", "paraphrase", "supported", "명시된 근로조건이 사실과 다르면 근로자는 손해배상을 청구할 수 있고 즉시 근로계약을 해제할 수 있다."),
            ("model", "paraphrase", "supported", "근로계약이 해제된 경우, 취업을 목적으로 거주를 변경한 근로자에게 사용자가 귀향 여비를 지급하여야 합니다."),
            ("model", "role_swap", "unsupported", "근로계약이 해제되었을 경우에는 근로자가 사용자에게 귀향 여비를 지급하여야 합니다."),
            ("human", "role_swap", "unsupported", "명시된 근로조건이 사실과 다를 경우 사용자는 근로자에게 근로조건 위반을 이유로 손해의 배상을 청구할 수 있다."),
        ],
    },
    {
        "origin": KB.format("제67조"),
        "lang": "ko",
        "question": "미성년자의 근로계약은 누가 대리하거나 해지할 수 있나요?",
        "evidence": "제67조 (근로계약) ① 친권자나 후견인은 미성년자의 근로계약을 대리할 수 없다. ② 친권자, 후견인 또는 고용노동부장관은 근로계약이 미성년자에게 불리하다고 인정하는 경우에는 이를 해지할 수 있다. ③ 사용자는 18세 미만인 사람과 근로계약을 체결하는 경우에는 제17조에 따른 근로조건을 서면(「전자문서 및 전자거래 기본법」 제2조제1호에 따른 전자문서를 포함한다)으로 명시하여 교부하여야 한다.",
        "claims": [
            ("human", "paraphrase", "supported", "미성년자의 근로계약은 친권자나 후견인이 대리할 수 없다."),
            ("model", "paraphrase", "supported", "근로계약이 미성년자에게 불리하다고 인정되면 고용노동부장관은 그 근로계약을 해지할 수 있습니다."),
            ("human", "role_swap", "unsupported", "미성년자는 친권자나 후견인의 근로계약을 대리할 수 없다."),
            ("model", "role_swap", "unsupported", "18세 미만인 사람은 사용자와 근로계약을 체결하는 경우 근로조건을 서면으로 명시하여 사용자에게 교부하여야 합니다."),
        ],
    },
    {
        "origin": HL.format("제3조의2 제2항·제3항"),
        "lang": "ko",
        "question": "확정일자를 갖춘 임차인은 보증금을 어떻게 돌려받나요?",
        "evidence": "제3조의2 (보증금의 회수) ② 제3조제1항ㆍ제2항 또는 제3항의 대항요건(對抗要件)과 임대차계약증서(제3조제2항 및 제3항의 경우에는 법인과 임대인 사이의 임대차계약증서를 말한다)상의 확정일자(確定日字)를 갖춘 임차인은 「민사집행법」에 따른 경매 또는 「국세징수법」에 따른 공매(公賣)를 할 때에 임차주택(대지를 포함한다)의 환가대금(換價代金)에서 후순위권리자(後順位權利者)나 그 밖의 채권자보다 우선하여 보증금을 변제(辨濟)받을 권리가 있다. ③ 임차인은 임차주택을 양수인에게 인도하지 아니하면 제2항에 따른 보증금을 받을 수 없다.",
        "claims": [
            ("human", "paraphrase", "supported", "대항요건과 확정일자를 갖춘 임차인은 경매 때 임차주택의 환가대금에서 후순위권리자보다 우선하여 보증금을 변제받을 권리가 있다."),
            ("model", "paraphrase", "supported", "임차주택을 양수인에게 인도하지 않으면 임차인은 그 보증금을 받을 수 없습니다."),
            ("human", "role_swap", "unsupported", "양수인은 임차주택을 임차인에게 인도하지 아니하면 보증금을 받을 수 없다."),
            ("model", "role_swap", "unsupported", "경매 때에는 후순위권리자가 확정일자를 갖춘 임차인보다 우선하여 환가대금에서 변제받을 권리가 있습니다."),
        ],
    },
]
