# ruff: noqa: E501  (data: one claim or passage a line)
"""Second held-out seeds for ``make_support_pairs.py`` (split ``heldout2``): written after the first
held-out run and before the changes that run suggested, and never used to choose a rule.

Evidence: Python 3.11 documentation (other paragraphs of ipaddress, asyncore and What's New in
3.11; PSF License), 출입국관리법, 외국인근로자의 고용 등에 관한 법률, 종합부동산세법 and 소득세법
(public domain, 저작권법 제7조). Each claim: (set, kind, label, claim).
"""

SEEDS = [
    {
        "origin": "python-docs library/ipaddress.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "How are IPv4 addresses written?",
        "evidence": "A string in decimal-dot notation, consisting of four decimal integers in the inclusive range 0--255, separated by dots (e.g. 192.168.0.1). Each integer represents an octet (byte) in the address. Leading zeroes are not tolerated to prevent confusion with octal notation.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "An IPv4 address string has four decimal integers from 0 to 255 separated by dots.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "Each of those integers stands for one octet of the address, and leading zeroes are rejected so that they cannot be mistaken for octal.",
            ),
            ("human", "number", "unsupported", "An IPv4 address string has six decimal integers separated by dots."),
            ("human", "negation", "unsupported", "Leading zeroes are tolerated in IPv4 address strings."),
            (
                "model",
                "role_swap",
                "unsupported",
                "Leading zeroes are rejected to prevent confusion of octal notation with decimal notation, since each octet represents an integer.",
            ),
            ("human", "scope", "unsupported", "Any integer can appear in a decimal-dot IPv4 address."),
        ],
    },
    {
        "origin": "python-docs library/asyncore.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What is asyncore's dispatcher?",
        "evidence": "The dispatcher class is a thin wrapper around a low-level socket object. To make it more useful, it has a few methods for event-handling which are called from the asynchronous loop. Otherwise, it can be treated as a normal non-blocking socket object.",
        "claims": [
            ("human", "paraphrase", "supported", "dispatcher is a thin wrapper around a low-level socket."),
            (
                "model",
                "paraphrase",
                "supported",
                "Apart from a few event-handling methods that the asynchronous loop calls, you can use it like an ordinary non-blocking socket.",
            ),
            (
                "human",
                "negation",
                "unsupported",
                "A dispatcher cannot be treated as a normal non-blocking socket object.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "The dispatcher calls the asynchronous loop from its event-handling methods.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "The dispatcher class is a thin wrapper around a blocking socket object.",
            ),
        ],
    },
    {
        "origin": "python-docs whatsnew/3.11.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What does PEP 654 add?",
        "evidence": "PEP 654 introduces language features that enable a program to raise and handle multiple unrelated exceptions simultaneously. The builtin types ExceptionGroup and BaseExceptionGroup make it possible to group exceptions and raise them together, and the new except* syntax generalizes except to match subgroups of exception groups.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "PEP 654 lets a program raise and handle several unrelated exceptions at once.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "With the new built-in ExceptionGroup and BaseExceptionGroup types, exceptions can be grouped and raised together.",
            ),
            ("human", "number", "unsupported", "PEP 645 introduces exception groups."),
            ("human", "name", "unsupported", "The builtin type ErrorGroup makes it possible to group exceptions."),
            (
                "model",
                "role_swap",
                "unsupported",
                "The new except syntax generalizes except* to match subgroups of exception groups.",
            ),
            ("human", "negation", "unsupported", "Exception groups cannot be raised together."),
        ],
    },
    {
        "origin": "python-docs whatsnew/3.11.rst (Python 3.11.2, PSF License)",
        "lang": "en",
        "question": "What happened to legacy standard library modules?",
        "evidence": "PEP 594: Many legacy standard library modules have been deprecated and will be removed in Python 3.13. PEP 624: Py_UNICODE encoder APIs have been removed. PEP 670: Macros converted to static inline functions.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "Under PEP 594, many legacy standard library modules are deprecated and due to be removed in Python 3.13.",
            ),
            ("model", "paraphrase", "supported", "The Py_UNICODE encoder APIs are gone, per PEP 624."),
            ("human", "number", "unsupported", "Many legacy standard library modules will be removed in Python 3.12."),
            ("human", "scope", "unsupported", "All standard library modules have been deprecated."),
            ("model", "role_swap", "unsupported", "PEP 670 converted static inline functions to macros."),
        ],
    },
    {
        "origin": "출입국관리법 제27조 (법률, 2026-08-04, MST290729; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "외국인은 여권을 항상 들고 다녀야 하나요?",
        "evidence": '제27조 (여권등의 휴대 및 제시)\n**①** 대한민국에 체류하는 외국인은 항상 여권ㆍ선원신분증명서ㆍ외국인입국허가서ㆍ외국인등록증ㆍ모바일외국인등록증 또는 상륙허가서(이하 "여권등"이라 한다)를 지니고 있어야 한다. 다만, 17세 미만인 외국인의 경우에는 그러하지 아니하다.\n\n**②** 제1항 본문의 외국인은 출입국관리공무원이나 권한 있는 공무원이 그 직무수행과 관련하여 여권등의 제시를 요구하면 여권등을 제시하여야 한다.',
        "claims": [
            ("human", "paraphrase", "supported", "17세 미만인 외국인은 여권등을 늘 지니고 있지 않아도 된다."),
            (
                "model",
                "paraphrase",
                "supported",
                "출입국관리공무원이 직무와 관련해 여권등을 보여 달라고 하면 외국인은 이를 제시해야 합니다.",
            ),
            ("human", "number", "unsupported", "19세 미만인 외국인은 여권등을 지니고 있지 않아도 된다."),
            (
                "human",
                "proviso",
                "unsupported",
                "대한민국에 체류하는 모든 외국인은 나이와 관계없이 여권등을 지니고 있어야 한다.",
            ),
            ("model", "role_swap", "unsupported", "외국인이 요구하면 출입국관리공무원은 여권등을 제시하여야 합니다."),
            ("human", "negation", "unsupported", "외국인은 공무원이 요구해도 여권등을 제시할 필요가 없다."),
        ],
    },
    {
        "origin": "출입국관리법 제17조 (법률, 2026-08-04, MST290729; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "외국인도 정치활동을 할 수 있나요?",
        "evidence": "제17조 (외국인의 체류 및 활동범위)\n**①** 외국인은 그 체류자격과 체류기간의 범위에서 대한민국에 체류할 수 있다.\n\n**②** 대한민국에 체류하는 외국인은 이 법 또는 다른 법률에서 정하는 경우를 제외하고는 정치활동을 하여서는 아니 된다.\n\n**③** 법무부장관은 대한민국에 체류하는 외국인이 정치활동을 하였을 때에는 그 외국인에게 서면으로 그 활동의 중지명령이나 그 밖에 필요한 명령을 할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "외국인은 체류자격과 체류기간의 범위 안에서 대한민국에 머물 수 있다."),
            (
                "model",
                "paraphrase",
                "supported",
                "법률이 따로 정한 경우가 아니면 국내에 체류하는 외국인은 정치활동을 해서는 안 됩니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "법무부장관은 정치활동을 한 외국인에게 구두로 활동의 중지명령을 할 수 있다.",
            ),
            ("human", "role_swap", "unsupported", "외국인은 법무부장관에게 정치활동의 중지명령을 할 수 있다."),
            (
                "model",
                "proviso",
                "unsupported",
                "대한민국에 체류하는 외국인은 어떠한 경우에도 정치활동을 할 수 없습니다.",
            ),
            ("human", "article", "unsupported", "출입국관리법 제18조에 따르면 외국인은 정치활동을 하여서는 아니 된다."),
        ],
    },
    {
        "origin": "외국인근로자의 고용 등에 관한 법률 제9조 (법률, 2026-06-09, MST286817; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "외국인 근로자와 계약할 때 정해진 양식이 있나요?",
        "evidence": "제9조 (근로계약)\n**①** 사용자가 제8조제4항에 따라 선정한 외국인근로자를 고용하려면 고용노동부령으로 정하는 표준근로계약서를 사용하여 근로계약을 체결하여야 한다.\n\n**②** 사용자는 제1항에 따른 근로계약을 체결하려는 경우 이를 한국산업인력공단에 대행하게 할 수 있다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "선정한 외국인근로자를 고용하는 사용자는 고용노동부령이 정한 표준근로계약서로 근로계약을 맺어야 한다.",
            ),
            ("model", "paraphrase", "supported", "사용자는 이 근로계약의 체결을 한국산업인력공단에 맡길 수 있습니다."),
            (
                "human",
                "role_swap",
                "unsupported",
                "한국산업인력공단은 근로계약의 체결을 사용자에게 대행하게 할 수 있다.",
            ),
            ("human", "negation", "unsupported", "사용자는 근로계약의 체결을 한국산업인력공단에 대행하게 할 수 없다."),
            ("model", "name", "unsupported", "사용자는 근로계약 체결을 근로복지공단에 대행하게 할 수 있습니다."),
            (
                "human",
                "article",
                "unsupported",
                "제7조제4항에 따라 선정한 외국인근로자를 고용하려면 표준근로계약서를 사용하여야 한다.",
            ),
        ],
    },
    {
        "origin": "외국인근로자의 고용 등에 관한 법률 제22조 (법률, 2026-06-09, MST286817; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "외국인이라고 차별해도 되나요?",
        "evidence": "제22조 (차별 금지)\n사용자는 외국인근로자라는 이유로 부당하게 차별하여 처우하여서는 아니 된다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "사용자는 외국인근로자라는 이유만으로 부당한 차별 대우를 해서는 안 된다.",
            ),
            ("model", "paraphrase", "supported", "외국인근로자라는 이유로 부당하게 차별해 처우하는 것은 금지됩니다."),
            ("human", "negation", "unsupported", "사용자는 외국인근로자라는 이유로 차별하여 처우할 수 있다."),
            (
                "model",
                "role_swap",
                "unsupported",
                "외국인근로자는 사용자라는 이유로 부당하게 차별하여 처우하여서는 아니 됩니다.",
            ),
        ],
    },
    {
        "origin": "종합부동산세법 제16조 (법률, 2025-12-23, MST280417; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "종부세는 언제 내나요?",
        "evidence": '제16조 (부과ㆍ징수 등)\n**①** 관할세무서장은 납부하여야 할 종합부동산세의 세액을 결정하여 해당 연도 12월 1일부터 12월 15일(이하 "납부기간"이라 한다)까지 부과ㆍ징수한다.\n\n**②** 관할세무서장은 종합부동산세를 징수하려면 납부고지서에 주택 및 토지로 구분한 과세표준과 세액을 기재하여 납부기간 개시 5일 전까지 발급하여야 한다.',
        "claims": [
            ("human", "paraphrase", "supported", "종합부동산세는 해당 연도 12월 1일부터 12월 15일까지 부과ㆍ징수된다."),
            (
                "model",
                "paraphrase",
                "supported",
                "세무서장은 납부기간이 시작되기 5일 전까지 납부고지서를 보내야 합니다.",
            ),
            ("human", "date", "unsupported", "종합부동산세는 해당 연도 11월 1일부터 11월 15일까지 부과ㆍ징수한다."),
            (
                "model",
                "number",
                "unsupported",
                "관할세무서장은 납부기간 개시 10일 전까지 납부고지서를 발급하여야 합니다.",
            ),
            ("human", "role_swap", "unsupported", "납세의무자는 관할세무서장에게 납부고지서를 발급하여야 한다."),
            (
                "human",
                "condition",
                "unsupported",
                "관할세무서장은 납부기간 개시 5일 후까지 납부고지서를 발급하면 된다.",
            ),
        ],
    },
    {
        "origin": "소득세법 제5조 (법률, 2026-09-08, MST289363; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "소득세 과세기간은 어떻게 되나요?",
        "evidence": '제5조 (과세기간)\n**①** 소득세의 과세기간은 1월 1일부터 12월 31일까지 1년으로 한다.\n\n**②** 거주자가 사망한 경우의 과세기간은 1월 1일부터 사망한 날까지로 한다.\n\n**③** 거주자가 주소 또는 거소를 국외로 이전(이하 "출국"이라 한다)하여 비거주자가 되는 경우의 과세기간은 1월 1일부터 출국한 날까지로 한다.',
        "claims": [
            ("human", "paraphrase", "supported", "소득세 과세기간은 1월 1일부터 12월 31일까지 1년이다."),
            ("model", "paraphrase", "supported", "거주자가 사망하면 과세기간은 1월 1일부터 사망한 날까지입니다."),
            ("human", "date", "unsupported", "소득세의 과세기간은 3월 1일부터 다음 해 2월 말일까지로 한다."),
            (
                "model",
                "condition",
                "unsupported",
                "거주자가 출국하여 비거주자가 되는 경우의 과세기간은 1월 1일부터 12월 31일까지입니다.",
            ),
            ("human", "scope", "unsupported", "모든 거주자의 과세기간은 예외 없이 1월 1일부터 12월 31일까지이다."),
        ],
    },
]
