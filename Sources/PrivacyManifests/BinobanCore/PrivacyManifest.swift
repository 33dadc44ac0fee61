// BinobanCorePrivacyManifest carries BinobanCore's PrivacyInfo.xcprivacy and no code.
//
// BinobanCore depends on this target on Apple platforms only, so the resource bundle (and the `Bundle.module`
// accessor that SwiftPM generates with Foundation) never reaches the Linux build of the core
// (Docs/Decisions/0110).
