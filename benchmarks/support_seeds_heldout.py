# ruff: noqa: E501  (data: one claim or passage a line)
"""Held-out seeds for ``make_support_pairs.py``: never used to choose a threshold or a rule.

Other passages than the dev seeds, and claims phrased another way. Evidence: Python 3.11
documentation (ipaddress, asyncore, What's New in 3.11; PSF License), 주택임대차보호법 and 개인정보
보호법 (public domain, 저작권법 제7조). Each claim: (set, kind, label, claim).
"""

SEEDS = [
    {
        "origin": "python-docs library/ipaddress.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What does ipaddress.ip_address return?",
        "evidence": "Return an IPv4Address or IPv6Address object depending on the IP address passed as argument. Either IPv4 or IPv6 addresses may be supplied; integers less than 2**32 will be considered to be IPv4 by default. A ValueError is raised if address does not represent a valid IPv4 or IPv6 address.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "ip_address gives back an IPv4Address or an IPv6Address object, whichever fits the address it is given.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, an integer below 2**32 is treated as an IPv4 address unless told otherwise.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Passing something that is not a valid IPv4 or IPv6 address makes the function raise ValueError.",
            ),
            ("human", "number", "unsupported", "Integers less than 2**16 are considered IPv4 by default."),
            ("human", "name", "unsupported", "An invalid address makes ip_address raise TypeError."),
            ("model", "negation", "unsupported", "The function never accepts IPv6 addresses, only IPv4 ones."),
            ("human", "role_swap", "unsupported", "Integers greater than 2**32 are considered IPv4 by default."),
        ],
    },
    {
        "origin": "python-docs library/ipaddress.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "Can address objects be dictionary keys?",
        "evidence": "The IPv4Address and IPv6Address objects share a lot of common attributes. Some attributes that are only meaningful for IPv6 addresses are also implemented by IPv4Address objects, in order to make it easier to write code that handles both IP versions correctly. Address objects are hashable, so they can be used as keys in dictionaries.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "Address objects can serve as dictionary keys because they are hashable.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Yes: IPv4Address also carries some attributes that only matter for IPv6, which makes it easier to write code that works with both versions.",
            ),
            ("human", "negation", "unsupported", "Address objects are not hashable."),
            (
                "model",
                "role_swap",
                "unsupported",
                "Some attributes that only make sense for IPv4 addresses are also implemented by IPv6Address objects.",
            ),
            ("human", "scope", "unsupported", "IPv4Address and IPv6Address objects share all of their attributes."),
        ],
    },
    {
        "origin": "python-docs library/asyncore.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "When does asyncore.loop stop?",
        "evidence": "Enter a polling loop that terminates after count passes or all open channels have been closed. All arguments are optional. The count parameter defaults to None, resulting in the loop terminating only when all channels have been closed.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "asyncore.loop runs a polling loop that ends after count passes or once every open channel is closed.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Because count defaults to None, the loop by default only stops when all channels have been closed.",
            ),
            ("human", "negation", "unsupported", "The arguments of asyncore.loop are not optional."),
            (
                "model",
                "condition",
                "unsupported",
                "With the default count, the loop terminates as soon as one channel has been closed.",
            ),
            ("human", "name", "unsupported", "The count parameter defaults to 30."),
        ],
    },
    {
        "origin": "python-docs library/asyncore.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What does readable() return by default?",
        "evidence": "Called each time around the asynchronous loop to determine whether a channel's socket should be added to the list on which read events can occur. The default method simply returns True, indicating that by default, all channels will be interested in read events.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "readable() returns True by default, so every channel wants read events.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "On each pass of the asynchronous loop, readable() decides whether the channel's socket is put on the list watched for read events.",
            ),
            ("human", "name", "unsupported", "The default readable() method returns False."),
            ("model", "negation", "unsupported", "By default, channels are not interested in read events."),
            ("human", "scope", "unsupported", "readable() is called only once, when the channel is created."),
        ],
    },
    {
        "origin": "python-docs whatsnew/3.11.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What is BaseException.add_note?",
        "evidence": "The add_note() method is added to BaseException. It can be used to enrich exceptions with context information that is not available at the time when the exception is raised. The added notes appear in the default traceback.",
        "claims": [
            ("human", "paraphrase", "supported", "Python 3.11 gives BaseException an add_note() method."),
            (
                "model",
                "paraphrase",
                "supported",
                "add_note() lets you attach context to an exception that was not known when it was raised, and the notes show up in the default traceback.",
            ),
            ("human", "name", "unsupported", "The add_note() method is added to ExceptionGroup only."),
            ("model", "negation", "unsupported", "Notes added with add_note() do not appear in the default traceback."),
            ("human", "date", "unsupported", "The add_note() method was added to BaseException in 2015."),
        ],
    },
    {
        "origin": "python-docs whatsnew/3.11.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What changed in the Windows launcher?",
        "evidence": "The copy of the launcher included with Python 3.11 has been significantly updated. It now supports company/tag syntax as defined in PEP 514 using the -V:<company>/<tag> argument instead of the limited -<major>.<minor>. This allows launching distributions other than PythonCore, the one hosted on python.org.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "The launcher shipped with Python 3.11 accepts PEP 514 company/tag selectors through -V:<company>/<tag>.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "This means it can start distributions other than PythonCore, the one from python.org.",
            ),
            ("human", "number", "unsupported", "The launcher now supports company/tag syntax as defined in PEP 541."),
            (
                "model",
                "role_swap",
                "unsupported",
                "It now supports the limited -<major>.<minor> argument instead of the -V:<company>/<tag> syntax.",
            ),
            ("human", "negation", "unsupported", "The launcher included with Python 3.11 has not been updated."),
        ],
    },
    {
        "origin": "주택임대차보호법 제3조 (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "집주인이 바뀌면 세입자는 어떻게 되나요?",
        "evidence": "제3조 (대항력 등)\n**①** 임대차는 그 등기(登記)가 없는 경우에도 임차인(賃借人)이 주택의 인도(引渡)와 주민등록을 마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다. 이 경우 전입신고를 한 때에 주민등록이 된 것으로 본다.\n\n**④** 임차주택의 양수인(讓受人)(그 밖에 임대할 권리를 승계한 자를 포함한다)은 임대인(賃貸人)의 지위를 승계한 것으로 본다.",
        "claims": [
            ("human", "paraphrase", "supported", "임차주택을 산 사람은 임대인의 지위를 이어받은 것으로 본다."),
            (
                "model",
                "paraphrase",
                "supported",
                "등기를 하지 않았더라도 세입자가 집을 넘겨받고 주민등록을 마치면 그다음 날부터 제삼자에게 효력이 생깁니다.",
            ),
            ("human", "role_swap", "unsupported", "임대인은 임차주택의 양수인의 지위를 승계한 것으로 본다."),
            (
                "model",
                "date",
                "unsupported",
                "세입자가 주택의 인도와 주민등록을 마친 날로부터 7일 뒤에 제삼자에 대하여 효력이 생깁니다.",
            ),
            ("human", "negation", "unsupported", "임대차는 등기가 없으면 제삼자에 대하여 효력이 없다."),
            (
                "human",
                "article",
                "unsupported",
                "주택임대차보호법 제5조에 따르면 임차주택의 양수인은 임대인의 지위를 승계한 것으로 본다.",
            ),
        ],
    },
    {
        "origin": "주택임대차보호법 제6조 (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "집주인이 아무 말 없으면 계약이 연장되나요?",
        "evidence": "제6조 (계약의 갱신)\n**①** 임대인이 임대차기간이 끝나기 6개월 전부터 2개월 전까지의 기간에 임차인에게 갱신거절(更新拒絶)의 통지를 하지 아니하거나 계약조건을 변경하지 아니하면 갱신하지 아니한다는 뜻의 통지를 하지 아니한 경우에는 그 기간이 끝난 때에 전 임대차와 동일한 조건으로 다시 임대차한 것으로 본다.\n\n**②** 제1항의 경우 임대차의 존속기간은 2년으로 본다.\n\n**③** 2기(期)의 차임액(借賃額)에 달하도록 연체하거나 그 밖에 임차인으로서의 의무를 현저히 위반한 임차인에 대하여는 제1항을 적용하지 아니한다.",
        "claims": [
            ("human", "paraphrase", "supported", "이렇게 다시 임대차한 것으로 보는 경우 존속기간은 2년이다."),
            (
                "model",
                "paraphrase",
                "supported",
                "월세를 2기의 차임액에 이르도록 밀린 임차인에게는 제1항의 묵시적 갱신이 적용되지 않습니다.",
            ),
            ("human", "number", "unsupported", "묵시적 갱신이 되면 임대차의 존속기간은 1년으로 본다."),
            (
                "model",
                "number",
                "unsupported",
                "임대인이 임대차기간이 끝나기 3개월 전부터 1개월 전까지 갱신거절을 통지하지 않으면 같은 조건으로 다시 임대차한 것으로 봅니다.",
            ),
            ("human", "negation", "unsupported", "차임을 2기 연체한 임차인에게도 제1항이 적용된다."),
            (
                "human",
                "role_swap",
                "unsupported",
                "임차인이 임대차기간이 끝나기 6개월 전부터 2개월 전까지 임대인에게 갱신거절의 통지를 하지 아니하면 다시 임대차한 것으로 본다.",
            ),
        ],
    },
    {
        "origin": "주택임대차보호법 제8조 (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "보증금 일부라도 먼저 돌려받을 수 있나요?",
        "evidence": "제8조 (보증금 중 일정액의 보호)\n**①** 임차인은 보증금 중 일정액을 다른 담보물권자(擔保物權者)보다 우선하여 변제받을 권리가 있다. 이 경우 임차인은 주택에 대한 경매신청의 등기 전에 제3조제1항의 요건을 갖추어야 한다.\n\n**③** 제1항에 따라 우선변제를 받을 임차인 및 보증금 중 일정액의 범위와 기준은 대통령령으로 정한다. 다만, 보증금 중 일정액의 범위와 기준은 주택가액(대지의 가액을 포함한다)의 2분의 1을 넘지 못한다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "임차인은 보증금 가운데 일정액을 다른 담보물권자보다 먼저 돌려받을 권리가 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "다만 이렇게 보호되는 금액의 범위와 기준은 집값(대지 가액 포함)의 절반을 넘을 수 없습니다.",
            ),
            ("human", "number", "unsupported", "보증금 중 일정액의 범위와 기준은 주택가액의 3분의 1을 넘지 못한다."),
            (
                "model",
                "condition",
                "unsupported",
                "임차인은 경매신청의 등기 후에 제3조제1항의 요건을 갖추어도 우선변제를 받을 수 있습니다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "보증금 중 일정액의 범위와 기준은 대통령령으로 정하며 그 한도에는 아무런 제한이 없다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "다른 담보물권자는 보증금 중 일정액을 임차인보다 우선하여 변제받을 권리가 있다.",
            ),
        ],
    },
    {
        "origin": "개인정보 보호법 제35조 (법률, 2026-09-08, MST289415; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "회사가 가진 내 개인정보를 볼 수 있나요?",
        "evidence": "제35조 (개인정보의 열람)\n**①** 정보주체는 개인정보처리자가 처리하는 자신의 개인정보에 대한 열람을 해당 개인정보처리자에게 요구할 수 있다.\n\n**③** 개인정보처리자는 제1항 및 제2항에 따른 열람을 요구받았을 때에는 대통령령으로 정하는 기간 내에 정보주체가 해당 개인정보를 열람할 수 있도록 하여야 한다. 이 경우 해당 기간 내에 열람할 수 없는 정당한 사유가 있을 때에는 정보주체에게 그 사유를 알리고 열람을 연기할 수 있으며, 그 사유가 소멸하면 지체 없이 열람하게 하여야 한다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "정보주체는 개인정보처리자에게 자신의 개인정보를 보여 달라고 요구할 수 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "정당한 사유로 기간 안에 열람하게 할 수 없으면 처리자는 그 사유를 알리고 열람을 미룰 수 있지만, 사유가 없어지면 지체 없이 열람하게 해야 합니다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "개인정보처리자는 정보주체가 처리하는 개인정보에 대한 열람을 정보주체에게 요구할 수 있다.",
            ),
            ("human", "negation", "unsupported", "정보주체는 자신의 개인정보에 대한 열람을 요구할 수 없다."),
            (
                "model",
                "condition",
                "unsupported",
                "개인정보처리자는 아무 사유가 없어도 정보주체의 열람을 연기할 수 있습니다.",
            ),
            (
                "human",
                "article",
                "unsupported",
                "개인정보 보호법 제36조에 따라 정보주체는 자신의 개인정보의 열람을 요구할 수 있다.",
            ),
        ],
    },
    {
        "origin": "개인정보 보호법 제39조의3 (법률, 2026-09-08, MST289415; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "개인정보 소송에서 상대방에게 자료를 내라고 할 수 있나요?",
        "evidence": "제39조의3 (자료의 제출)\n**①** 법원은 이 법을 위반한 행위로 인한 손해배상청구소송에서 당사자의 신청에 따라 상대방 당사자에게 해당 손해의 증명 또는 손해액의 산정에 필요한 자료의 제출을 명할 수 있다. 다만, 제출명령을 받은 자가 그 자료의 제출을 거부할 정당한 이유가 있으면 그러하지 아니하다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "손해배상청구소송에서 법원은 당사자가 신청하면 상대방에게 손해 증명에 필요한 자료를 내라고 명할 수 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "다만 제출명령을 받은 쪽에 자료 제출을 거부할 정당한 이유가 있으면 그렇지 않습니다.",
            ),
            (
                "human",
                "proviso",
                "unsupported",
                "법원이 자료 제출을 명하면 상대방 당사자는 어떤 이유로도 거부할 수 없다.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "상대방 당사자는 법원에 손해액의 산정에 필요한 자료의 제출을 명할 수 있다.",
            ),
            (
                "model",
                "negation",
                "unsupported",
                "법원은 당사자가 신청해도 상대방 당사자에게 자료의 제출을 명할 수 없습니다.",
            ),
        ],
    },
    {
        "origin": "주택임대차보호법 제3조 (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "전입신고는 언제 주민등록이 된 것으로 보나요?",
        "evidence": "제3조 (대항력 등)\n**①** 임대차는 그 등기(登記)가 없는 경우에도 임차인(賃借人)이 주택의 인도(引渡)와 주민등록을 마친 때에는 그 다음 날부터 제삼자에 대하여 효력이 생긴다. 이 경우 전입신고를 한 때에 주민등록이 된 것으로 본다.",
        "claims": [
            ("human", "paraphrase", "supported", "전입신고를 한 때에 주민등록이 된 것으로 본다."),
            ("model", "paraphrase", "supported", "세입자가 전입신고를 하면 그때 주민등록을 마친 것으로 봅니다."),
            (
                "human",
                "condition",
                "unsupported",
                "임차인이 주택의 인도만 마치면 주민등록 없이도 제삼자에 대하여 효력이 생긴다.",
            ),
            ("model", "negation", "unsupported", "전입신고를 했더라도 주민등록이 된 것으로 보지 않습니다."),
        ],
    },
]
