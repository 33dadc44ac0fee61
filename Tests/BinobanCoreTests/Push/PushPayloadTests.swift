import BinobanCore
import Testing

@Suite("Push payload parsing and encoding")
struct PushPayloadTests {
    @Test("Only a top-level source of exactly \"binoban\" counts")
    func sourceMustMatchExactly() {
        let nearMisses: [JSONValue] = [
            "Binoban", "BINOBAN", " binoban", "binoban ", "binoban\n", "binoban\u{0}", "binobann", "binoba",
            "bin\u{00F6}ban", "binoban\u{0301}", "", .null, true, 1, ["binoban"], ["source": "binoban"],
        ]
        for value in nearMisses {
            let userInfo: JSONValue = ["source": value, "binoban_notification_uuid": "n-1"]
            #expect(BinobanPushPayload.parse(userInfo) == .notBinoban, "source \(value) must not count")
        }
        let nested: JSONValue = ["data": ["source": "binoban", "binoban_notification_uuid": "n-1"]]
        #expect(BinobanPushPayload.parse(nested) == .notBinoban)
        #expect(BinobanPushPayload.parse(["Source": "binoban", "binoban_notification_uuid": "n-1"]) == .notBinoban)
        #expect(BinobanPushPayload.parse(["binoban"]) == .notBinoban)
        #expect(BinobanPushPayload.parse(.null) == .notBinoban)
    }

    @Test("A Binoban payload without a usable uuid is malformed and reported")
    func missingUuid() {
        for uuid: JSONValue? in [nil, "", "  \n", 42, .null] {
            var fields: [String: JSONValue] = ["source": "binoban"]
            fields["binoban_notification_uuid"] = uuid
            let result = BinobanPushPayload.parse(.object(fields))
            #expect(result.payload == nil)
            #expect(result.diagnostics.map(\.code) == [.missingNotificationUuid])
        }
    }

    @Test("Fields are read from the mapping table")
    func readsEveryField() throws {
        let userInfo: JSONValue = [
            "source": "binoban",
            "binoban_notification_uuid": "n-7",
            "binoban_title": "Sale",
            "binoban_body": "50% off",
            "binoban_uri": "app://sale",
            "binoban_actions": #"[{"id":"buy","title":"Buy","uri":"app://buy"},{"id":"later","title":"Later"}]"#,
            "binoban_cd_campaign": "spring",
            "gcm.message_id": "123",
        ]
        let payload = try #require(BinobanPushPayload.parse(userInfo).payload)
        #expect(
            payload
                == BinobanPushPayload(
                    notificationUuid: "n-7",
                    title: "Sale",
                    body: "50% off",
                    uri: "app://sale",
                    actions: [
                        BinobanPushAction(id: "buy", title: "Buy", uri: "app://buy"),
                        BinobanPushAction(id: "later", title: "Later"),
                    ],
                    customData: ["campaign": "spring"]
                )
        )
        #expect(payload.uri(forAction: "buy") == "app://buy")
        #expect(payload.uri(forAction: "later") == nil)
        #expect(payload.uri(forAction: "unknown") == nil)
    }

    @Test("A renamed key table is honoured end to end")
    func customKeyTable() throws {
        var keys = BinobanPushPayloadKeys.standard
        keys.notificationUuid = "nid"
        keys.customDataPrefix = "x_"
        let payload = BinobanPushPayload(notificationUuid: "n-1", customData: ["a": "b"])
        let userInfo = payload.userInfo(keys: keys)
        #expect(userInfo["nid"] == "n-1")
        #expect(userInfo["x_a"] == "b")
        #expect(BinobanPushPayload.parse(userInfo, keys: keys).payload == payload)
        #expect(BinobanPushPayload.parse(userInfo).payload == nil)
    }

    @Test("Buttons beyond three are dropped and reported; invalid buttons are dropped and reported")
    func actionCap() throws {
        let actions: JSONValue = [
            ["id": "a", "title": "A"], ["title": "no id"], ["id": "", "title": "blank"], ["id": "a", "title": "dup"],
            ["id": "b", "title": "B"], ["id": "c", "title": "C"], ["id": "d", "title": "D"], ["id": "e", "title": "E"],
            "not an object",
        ]
        let result = BinobanPushPayload.parse([
            "source": "binoban", "binoban_notification_uuid": "n", "binoban_actions": actions,
        ])
        let payload = try #require(result.payload)
        #expect(payload.actions.map(\.id) == ["a", "b", "c"])
        let codes = result.diagnostics.map(\.code)
        #expect(codes.filter { $0 == .invalidActionDropped }.count == 4)
        #expect(codes.filter { $0 == .extraActionsDropped }.count == 1)
        #expect(result.diagnostics.contains { $0.code == .extraActionsDropped && $0.message.hasPrefix("2 ") })
    }

    @Test("A button list that is not an array, or not valid JSON text, is ignored and reported")
    func invalidActionList() {
        for actions: JSONValue in ["[{", "{}", 3, ["id": "a"]] {
            let result = BinobanPushPayload.parse([
                "source": "binoban", "binoban_notification_uuid": "n", "binoban_actions": actions,
            ])
            #expect(result.payload?.actions == [])
            #expect(result.diagnostics.map(\.code) == [.invalidField])
        }
    }

    @Test("A stashed per-button uri, keyed by action id, wins over the button object's uri")
    func stashedButtonUri() throws {
        let userInfo: JSONValue = [
            "source": "binoban", "binoban_notification_uuid": "n",
            "binoban_actions": [["id": "a", "title": "A", "uri": "app://own"], ["id": "b", "title": "B"]],
            "binoban_action_uri_a": "app://stashed", "binoban_action_uri_b": "app://b",
        ]
        let payload = try #require(BinobanPushPayload.parse(userInfo).payload)
        #expect(payload.uri(forAction: "a") == "app://stashed")
        #expect(payload.uri(forAction: "b") == "app://b")
    }

    @Test("Wrongly typed title, body and uri are ignored and reported; a blank uri is no uri")
    func wrongTypes() throws {
        let userInfo: JSONValue = [
            "source": "binoban", "binoban_notification_uuid": "n", "binoban_title": 1, "binoban_body": ["x"],
            "binoban_uri": " ",
        ]
        let result = BinobanPushPayload.parse(userInfo)
        let payload = try #require(result.payload)
        #expect(payload.title == nil && payload.body == nil && payload.uri == nil)
        #expect(result.diagnostics.map(\.code) == [.invalidField, .invalidField])
    }

    @Test("Non-string custom-data values travel as JSON text; null is dropped; each is reported")
    func customDataNonStrings() throws {
        let userInfo: JSONValue = [
            "source": "binoban", "binoban_notification_uuid": "n", "binoban_cd_n": 42, "binoban_cd_b": true,
            "binoban_cd_d": 1.5, "binoban_cd_o": ["k": "v"], "binoban_cd_a": [1, "x"], "binoban_cd_z": .null,
            "binoban_cd_s": "plain",
        ]
        let result = BinobanPushPayload.parse(userInfo)
        let payload = try #require(result.payload)
        #expect(
            payload.customData == [
                "n": "42", "b": "true", "d": "1.5", "o": #"{"k":"v"}"#, "a": #"[1,"x"]"#, "s": "plain",
            ]
        )
        #expect(result.diagnostics.filter { $0.code == .customDataValueConverted }.count == 6)
    }

    @Test("No custom data gives nil, not an empty map")
    func noCustomData() throws {
        let payload = try #require(BinobanPushPayload.parse(binobanUserInfo()).payload)
        #expect(payload.customData == nil)
    }

    @Test(
        "Custom data round-trips with hostile keys and values",
        arguments: [
            ["quote\"key": "va\"lue", "back\\slash": "\\", "new\nline": "line\r\nbreak\ttab"],
            ["": "empty key", "binoban_cd_": "prefix inside", "binoban_cd_binoban_cd_": "twice"],
            ["\u{0301}combining": "e\u{0301}", "emoji 👩‍👩‍👧": "🇩🇪", "日本": "中文", "null\u{0}byte": "\u{0}"],
            ["source": "not binoban", "binoban_notification_uuid": "spoof", "binoban_uri": "app://spoof"],
            ["k": "", " ": " ", "</script>": "<script>alert(1)</script>", "{": "}"],
        ] as [[String: String]]
    )
    func customDataRoundTrip(customData: [String: String]) throws {
        let original = BinobanPushPayload(
            notificationUuid: "n-\u{1F600}",
            title: "t\"\n",
            uri: "app://x?q=\"y\"",
            actions: [BinobanPushAction(id: "a\"\n", title: "\u{0301}", uri: "app://a")],
            customData: customData
        )
        let userInfo = original.userInfo()
        let parsed = BinobanPushPayload.parse(userInfo)
        #expect(parsed.payload == original)
        #expect(parsed.diagnostics.isEmpty)
        // The same through the loosely typed path a host uses, via JSON text and back.
        let text = userInfo.jsonString()
        let reparsed = try JSONValueDecoding.decode(text)
        #expect(BinobanPushPayload.parse(reparsed).payload == original)
    }

    @Test("The encoder writes a flat, string-only userInfo with each button's uri stashed")
    func encoderShape() throws {
        let payload = BinobanPushPayload(
            notificationUuid: "n",
            actions: [BinobanPushAction(id: "a", title: "A", uri: "app://a"), BinobanPushAction(id: "b", title: "B")],
            customData: ["c": "d"]
        )
        let fields = try #require(payload.userInfo().objectValue)
        #expect(fields.values.allSatisfy { $0.stringValue != nil })
        #expect(fields["binoban_action_uri_a"] == "app://a")
        #expect(fields["binoban_action_uri_b"] == nil)
        #expect(fields["binoban_cd_c"] == "d")
        #expect(fields["binoban_title"] == nil)
    }
}
