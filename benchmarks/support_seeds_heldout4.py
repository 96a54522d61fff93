# ruff: noqa: E501  (data: one claim or passage a line)
"""Fourth held-out seeds for ``make_support_pairs.py`` (split ``heldout4``): written and committed
before any rule change of the third pass, from passages used by no other split and by no row of
``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Weighted towards the kinds the guards missed most on heldout3: ``role_swap``, ``name``,
``condition``, ``contrast``, ``addition``, ``proviso`` and ``date``, with faithful paraphrases in
other words that must pass.

Evidence: Python 3.11 documentation (http.client HTTPConnection and HTTPConnection.set_tunnel,
urllib.parse allow_fragments, ipaddress is_private, What's New in 3.11 PEP 673; PSF License; reST
markup dropped), 근로기준법 제24조, 제25조, 출입국관리법 제19조 제1항, 제21조, 주택임대차보호법
제6조의2 and 제9조 (public domain, 저작권법 제7조; articles cut to the paragraphs named in ``origin``,
the corpus heading "제6조 (묵시적 갱신의 경우 계약의 해지)" written 제6조의2 as law.go.kr numbers it).
Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
IM = "출입국관리법 {} (법률, 2026-08-04, MST290729; public domain, 저작권법 제7조)"
HL = "주택임대차보호법 {} (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/http.client.rst"),
        "lang": "en",
        "question": "How is an HTTPConnection created?",
        "evidence": "An HTTPConnection instance represents one transaction with an HTTP server. It should be instantiated by passing it a host and optional port number. If no port number is passed, the port is extracted from the host string if it has the form host:port, else the default HTTP port (80) is used. If the optional timeout parameter is given, blocking operations (like connection attempts) will timeout after that many seconds (if it is not given, the global default timeout setting is used). The optional source_address parameter may be a tuple of a (host, port) to use as the source address the HTTP connection is made from. The optional blocksize parameter sets the buffer size in bytes for sending a file-like message body.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "Without a port number and without a host:port string, HTTPConnection falls back to the default HTTP port, 80.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, when a timeout is given, blocking operations such as connection attempts time out after that many seconds; otherwise the global default timeout setting applies.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "The blocksize parameter sets how many bytes the buffer holds when a file-like message body is sent.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, each HTTPConnection instance stands for a single transaction with an HTTP server.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "The port is extracted from the host string only when a port number is passed.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "The optional source_address parameter sets the buffer size in bytes for sending a file-like message body.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "According to the docs, source_address is the address the HTTP connection is made to, given as a (host, port) tuple.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "If the timeout parameter is given, blocking operations time out after that many seconds, and the connection attempt is retried three times before an error is raised.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "The timeout parameter is required, while the port number is optional.",
            ),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What does allow_fragments=False do in urlparse?",
        "evidence": "If the allow_fragments argument is false, fragment identifiers are not recognized. Instead, they are parsed as part of the path, parameters or query component, and fragment is set to the empty string in the return value.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "With allow_fragments set to false, fragment identifiers are not recognized.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "When allow_fragments is false, a fragment is parsed as part of the path, parameters or query component, and the fragment attribute of the result is the empty string.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "If the allow_fragments argument is true, fragment identifiers are not recognized.",
            ),
            (
                "human",
                "negation",
                "unsupported",
                "If allow_fragments is false, fragment identifiers are still recognized.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "If allow_fragments is false, fragment identifiers are not recognized, and a warning is logged for every URL that contains one.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "If the allow_fragments argument is false, the query is set to the empty string in the return value.",
            ),
            (
                "model",
                "contrast",
                "unsupported",
                "In short, with allow_fragments false the fragment is dropped from the URL entirely instead of being kept in the path.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "When is an address private in ipaddress?",
        "evidence": "is_private: True if the address is defined as not globally reachable by iana-ipv4-special-registry (for IPv4) or iana-ipv6-special-registry (for IPv6) with the following exceptions: is_private is False for the shared address space (100.64.0.0/10). For IPv4-mapped IPv6-addresses the is_private value is determined by the semantics of the underlying IPv4 addresses.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "An address is private when the IANA special registries define it as not globally reachable, with some exceptions.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, the shared address space 100.64.0.0/10 is an exception: is_private is False for it.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "For an IPv4-mapped IPv6 address, is_private follows the semantics of the underlying IPv4 address.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "is_private is True for every address that is not globally reachable, without exception.",
            ),
            ("human", "negation", "unsupported", "is_private is True for the shared address space 100.64.0.0/10."),
            (
                "model",
                "role_swap",
                "unsupported",
                "For IPv4-mapped IPv6 addresses, the semantics of the underlying IPv4 address are determined by the is_private value.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "An address is private if the IANA registries define it as not globally reachable, and such addresses are rejected by ip_network when strict is true.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "For IPv4-mapped IPv6-addresses the is_private value is determined by the iana-ipv6-special-registry.",
            ),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What is the Self type in Python 3.11?",
        "evidence": "PEP 673: Self type. The new Self annotation provides a simple and intuitive way to annotate methods that return an instance of their class. This behaves the same as the TypeVar-based approach specified in PEP 484, but is more concise and easier to follow. Common use cases include alternative constructors provided as classmethods, and __enter__ methods that return self.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "Python 3.11 adds a Self annotation for methods that return an instance of their class.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Self behaves like the TypeVar-based approach of PEP 484 but is shorter and easier to follow.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Typical uses are alternative constructors written as classmethods and __enter__ methods that return self.",
            ),
            ("human", "date", "unsupported", "The Self annotation was introduced in Python 3.9."),
            ("human", "name", "unsupported", "PEP 484 introduces the new Self annotation."),
            (
                "model",
                "contrast",
                "unsupported",
                "Self behaves differently from the TypeVar-based approach of PEP 484 and is more verbose.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "The Self annotation gives a simple way to annotate methods that return an instance of their class, and type checkers raise an error at runtime when such a method returns another type.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "The TypeVar-based approach of PEP 484 is more concise and easier to follow than Self.",
            ),
        ],
    },
    {
        "origin": KB.format("제24조 제1항부터 제3항까지"),
        "lang": "ko",
        "question": "경영상 이유로 해고하려면 어떤 요건이 필요한가요?",
        "evidence": '제24조 (경영상 이유에 의한 해고의 제한)\n**①** 사용자가 경영상 이유에 의하여 근로자를 해고하려면 긴박한 경영상의 필요가 있어야 한다. 이 경우 경영 악화를 방지하기 위한 사업의 양도ㆍ인수ㆍ합병은 긴박한 경영상의 필요가 있는 것으로 본다.\n\n**②** 제1항의 경우에 사용자는 해고를 피하기 위한 노력을 다하여야 하며, 합리적이고 공정한 해고의 기준을 정하고 이에 따라 그 대상자를 선정하여야 한다. 이 경우 남녀의 성을 이유로 차별하여서는 아니 된다.\n\n**③** 사용자는 제2항에 따른 해고를 피하기 위한 방법과 해고의 기준 등에 관하여 그 사업 또는 사업장에 근로자의 과반수로 조직된 노동조합이 있는 경우에는 그 노동조합(근로자의 과반수로 조직된 노동조합이 없는 경우에는 근로자의 과반수를 대표하는 자를 말한다. 이하 "근로자대표"라 한다)에 해고를 하려는 날의 50일 전까지 통보하고 성실하게 협의하여야 한다.',
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "경영상 이유로 근로자를 해고하려면 긴박한 경영상의 필요가 있어야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제24조에 따르면 경영 악화를 막기 위한 사업의 양도·인수·합병은 긴박한 경영상의 필요가 있는 것으로 봅니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "사용자는 해고를 피하려는 노력을 다하고, 합리적이고 공정한 기준에 따라 해고 대상자를 선정해야 합니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "사용자는 해고하려는 날의 50일 전까지 근로자대표에게 통보하고 성실하게 협의해야 한다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "사용자는 해고하려는 날부터 50일 이후에 근로자대표에게 통보하면 된다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "근로자대표는 해고를 하려는 날의 50일 전까지 사용자에게 통보하고 성실하게 협의하여야 한다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "사용자는 해고를 피하기 위한 노력을 다해야 하며, 해고 대상자에게는 3개월분의 위로금을 지급해야 합니다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "경영상 이유에 의한 해고에서는 남녀의 성을 이유로 한 차별도 긴박한 경영상의 필요가 있으면 허용된다.",
            ),
            (
                "model",
                "contrast",
                "unsupported",
                "근로자의 과반수로 조직된 노동조합이 있더라도 사용자는 근로자의 과반수를 대표하는 자와 협의해야 합니다.",
            ),
        ],
    },
    {
        "origin": IM.format("제19조 제1항"),
        "lang": "ko",
        "question": "외국인을 고용한 사람은 무엇을 신고해야 하나요?",
        "evidence": "제19조 (외국인을 고용한 자 등의 신고의무)\n**①** 제18조제1항에 따라 취업활동을 할 수 있는 체류자격을 가지고 있는 외국인을 고용한 자는 다음 각 호의 어느 하나에 해당하는 사유가 발생하면 대통령령으로 정하는 바에 따라 15일 이내에 지방출입국ㆍ외국인관서의 장에게 신고하여야 한다. <개정 2014.3.18, 2020.6.9>\n\n  1. 외국인을 해고하거나 외국인이 퇴직 또는 사망한 경우\n  2. 고용된 외국인의 소재를 알 수 없게 된 경우\n  3. 고용계약의 중요한 내용을 변경한 경우",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "외국인을 고용한 자는 그 외국인이 퇴직하면 15일 이내에 지방출입국·외국인관서의 장에게 신고하여야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "출입국관리법 제19조에 따르면 고용된 외국인의 소재를 알 수 없게 된 경우에도 고용주는 15일 이내에 신고해야 합니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "고용계약의 중요한 내용을 바꾼 경우에도 외국인을 고용한 자에게 신고 의무가 있습니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "외국인을 고용한 자는 외국인이 퇴직한 날부터 15일이 지난 후에 신고하여야 한다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "지방출입국·외국인관서의 장은 외국인을 해고하면 15일 이내에 외국인을 고용한 자에게 신고하여야 한다.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "외국인을 고용한 자는 외국인이 사망한 경우 15일 이내에 법무부장관에게 신고하여야 한다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "외국인이 퇴직하면 고용한 자는 15일 이내에 신고해야 하며, 신고하지 않으면 500만원 이하의 과태료가 부과됩니다.",
            ),
            ("human", "date", "unsupported", "외국인을 고용한 자의 신고의무 조항은 2022년에 개정되었다."),
            (
                "model",
                "condition",
                "unsupported",
                "외국인을 고용한 자는 고용계약의 사소한 내용을 변경한 경우에도 신고해야 합니다.",
            ),
        ],
    },
    {
        "origin": HL.format("제6조의2"),
        "lang": "ko",
        "question": "묵시적으로 갱신된 임대차는 언제 해지할 수 있나요?",
        "evidence": "제6조의2 (묵시적 갱신의 경우 계약의 해지)\n**①** 제6조제1항에 따라 계약이 갱신된 경우 같은 조 제2항에도 불구하고 임차인은 언제든지 임대인에게 계약해지(契約解止)를 통지할 수 있다. <개정 2009.5.8>\n\n**②** 제1항에 따른 해지는 임대인이 그 통지를 받은 날부터 3개월이 지나면 그 효력이 발생한다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "묵시적으로 갱신된 임대차에서 임차인은 언제든지 임대인에게 계약해지를 통지할 수 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "주택임대차보호법 제6조의2에 따르면 그 해지는 임대인이 통지를 받은 날부터 3개월이 지나면 효력이 생깁니다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "묵시적으로 갱신된 경우 임대인은 언제든지 임차인에게 계약해지를 통지할 수 있다.",
            ),
            ("human", "condition", "unsupported", "해지는 임대인이 통지를 받은 날부터 3개월 이내에 효력이 발생한다."),
            (
                "model",
                "role_swap",
                "unsupported",
                "해지는 임차인이 임대인의 통지를 받은 날부터 3개월이 지나면 효력이 발생합니다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "임차인은 언제든지 계약해지를 통지할 수 있으며, 이 경우 임대인은 보증금의 10퍼센트를 위약금으로 공제할 수 있습니다.",
            ),
            ("human", "date", "unsupported", "묵시적 갱신의 경우 계약 해지에 관한 조항은 2015년에 개정되었다."),
            ("human", "proviso", "unsupported", "임차인은 임대차기간이 끝나기 전에는 계약해지를 통지할 수 없다."),
        ],
    },
    {
        "origin": HL.format("제9조 제1항, 제3항, 제4항"),
        "lang": "ko",
        "question": "임차인이 사망하면 임차권은 누가 승계하나요?",
        "evidence": "제9조 (주택 임차권의 승계)\n**①** 임차인이 상속인 없이 사망한 경우에는 그 주택에서 가정공동생활을 하던 사실상의 혼인 관계에 있는 자가 임차인의 권리와 의무를 승계한다.\n\n**③** 제1항과 제2항의 경우에 임차인이 사망한 후 1개월 이내에 임대인에게 제1항과 제2항에 따른 승계 대상자가 반대의사를 표시한 경우에는 그러하지 아니하다.\n\n**④** 제1항과 제2항의 경우에 임대차 관계에서 생긴 채권ㆍ채무는 임차인의 권리의무를 승계한 자에게 귀속된다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "임차인이 상속인 없이 사망하면 그 주택에서 가정공동생활을 하던 사실혼 배우자가 임차인의 권리와 의무를 승계한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "다만 승계 대상자가 임차인이 사망한 후 1개월 이내에 임대인에게 반대의사를 표시하면 승계되지 않습니다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "임대차 관계에서 생긴 채권과 채무는 임차인의 권리의무를 승계한 사람에게 귀속됩니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "승계 대상자가 임차인이 사망한 후 1개월이 지난 뒤에 반대의사를 표시하면 승계하지 않는다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "임대인이 임차인이 사망한 후 1개월 이내에 승계 대상자에게 반대의사를 표시하면 승계되지 않는다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "사실상의 혼인 관계에 있는 자가 임차인의 권리와 의무를 승계하며, 승계 후 6개월 안에 임대인과 새 계약서를 작성해야 합니다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "승계 대상자가 반대의사를 표시하더라도 임차인의 권리와 의무는 반드시 승계된다.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "임차인이 상속인 없이 사망한 경우에는 임대인이 임차인의 권리와 의무를 승계한다.",
            ),
            (
                "model",
                "contrast",
                "unsupported",
                "임차인이 상속인 없이 사망하면 그 주택에서 함께 살지 않던 사실혼 배우자도 권리와 의무를 승계합니다.",
            ),
        ],
    },
    {
        "origin": PY.format("library/http.client.rst"),
        "lang": "en",
        "question": "What does HTTPConnection.set_tunnel do?",
        "evidence": "Set the host and the port for HTTP Connect Tunnelling. This allows running the connection through a proxy server. The host and port arguments specify the endpoint of the tunneled connection (i.e. the address included in the CONNECT request, not the address of the proxy server). The headers argument should be a mapping of extra HTTP headers to send with the CONNECT request. For example, to tunnel through a HTTPS proxy server running locally on port 8080, we would pass the address of the proxy to the HTTPSConnection constructor, and the address of the host that we eventually want to reach to the set_tunnel method.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "set_tunnel sets the host and port for HTTP Connect Tunnelling, so the connection can run through a proxy server.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "The host and port given to set_tunnel are the endpoint of the tunneled connection, the address in the CONNECT request, not the proxy's address.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "To tunnel through a local HTTPS proxy on port 8080, you pass the proxy's address to the HTTPSConnection constructor and the address of the host you want to reach to set_tunnel.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "To tunnel through a proxy, pass the address of the host you want to reach to the HTTPSConnection constructor and the address of the proxy to set_tunnel.",
            ),
            (
                "human",
                "negation",
                "unsupported",
                "The host and port arguments of set_tunnel give the address of the proxy server.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "According to the docs, the headers argument should be a mapping of extra HTTP headers to send with the proxy server's TLS handshake.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "set_tunnel lets the connection run through a proxy server, and it also caches the proxy's credentials for later requests.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "The headers argument should be a list of header names rather than a mapping.",
            ),
        ],
    },
    {
        "origin": KB.format("제25조"),
        "lang": "ko",
        "question": "경영상 해고 후 다시 채용할 때 해고된 근로자를 우선 고용해야 하나요?",
        "evidence": "제25조 (우선 재고용 등)\n**①** 제24조에 따라 근로자를 해고한 사용자는 근로자를 해고한 날부터 3년 이내에 해고된 근로자가 해고 당시 담당하였던 업무와 같은 업무를 할 근로자를 채용하려고 할 경우 제24조에 따라 해고된 근로자가 원하면 그 근로자를 우선적으로 고용하여야 한다.\n\n**②** 정부는 제24조에 따라 해고된 근로자에 대하여 생계안정, 재취업, 직업훈련 등 필요한 조치를 우선적으로 취하여야 한다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "경영상 이유로 해고한 사용자가 해고한 날부터 3년 이내에 같은 업무의 근로자를 채용하려면 해고된 근로자가 원할 경우 그를 우선 고용해야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제25조에 따르면 정부는 경영상 이유로 해고된 근로자에게 생계안정, 재취업, 직업훈련 등 필요한 조치를 우선적으로 취해야 합니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "사용자는 근로자를 해고한 날부터 3년이 지난 후에 같은 업무의 근로자를 채용할 때 해고된 근로자를 우선 고용하여야 한다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "사용자는 정부에 대하여 생계안정, 재취업, 직업훈련 등 필요한 조치를 우선적으로 취하여야 한다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "해고된 근로자가 원하지 않더라도 사용자는 그 근로자를 우선적으로 고용하여야 한다.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "사용자가 해고 당시와 다른 업무를 할 근로자를 채용하려는 경우에도 해고된 근로자를 우선적으로 고용해야 합니다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "사용자는 3년 이내에 같은 업무의 근로자를 채용하려면 해고된 근로자를 우선 고용해야 하며, 이때 해고 전보다 낮은 임금을 줄 수 없습니다.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "고용노동부장관은 제24조에 따라 해고된 근로자에 대하여 생계안정 등 필요한 조치를 우선적으로 취하여야 한다.",
            ),
        ],
    },
    {
        "origin": IM.format("제21조"),
        "lang": "ko",
        "question": "외국인이 근무처를 바꾸려면 어떻게 해야 하나요?",
        "evidence": "제21조 (근무처의 변경ㆍ추가)\n**①** 대한민국에 체류하는 외국인이 그 체류자격의 범위에서 그의 근무처를 변경하거나 추가하려면 대통령령으로 정하는 바에 따라 미리 법무부장관의 허가를 받아야 한다. 다만, 전문적인 지식ㆍ기술 또는 기능을 가진 사람으로서 대통령령으로 정하는 사람은 근무처를 변경하거나 추가한 날부터 15일 이내에 대통령령으로 정하는 바에 따라 법무부장관에게 신고하여야 한다. <개정 2020.6.9>\n\n**②** 누구든지 제1항 본문에 따른 근무처의 변경허가ㆍ추가허가를 받지 아니한 외국인을 고용하거나 고용을 알선하여서는 아니 된다. 다만, 다른 법률에 따라 고용을 알선하는 경우에는 그러하지 아니하다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "체류자격 범위에서 근무처를 변경하거나 추가하려는 외국인은 미리 법무부장관의 허가를 받아야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "다만 전문적인 지식·기술 또는 기능을 가진 사람으로서 대통령령으로 정하는 사람은 근무처를 바꾼 날부터 15일 이내에 법무부장관에게 신고하면 됩니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "누구든지 근무처 변경허가나 추가허가를 받지 않은 외국인을 고용하거나 그 고용을 알선해서는 안 된다.",
            ),
            ("human", "condition", "unsupported", "외국인은 근무처를 변경한 후에 법무부장관의 허가를 받으면 된다."),
            (
                "human",
                "condition",
                "unsupported",
                "전문적인 지식을 가진 사람은 근무처를 변경하기 15일 전까지 법무부장관에게 신고하여야 한다.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "법무부장관은 근무처를 변경하려는 외국인에게 미리 허가를 받아야 합니다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "어떤 경우에도 변경허가를 받지 않은 외국인의 고용을 알선해서는 아니 된다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "외국인은 근무처를 변경하려면 미리 법무부장관의 허가를 받아야 하며, 허가 신청은 새 근무처의 사업주가 대신 할 수 있습니다.",
            ),
            (
                "human",
                "date",
                "unsupported",
                "근무처의 변경·추가에 관한 출입국관리법 제21조 제1항은 2014년에 개정되었다.",
            ),
        ],
    },
]
