// The shared value types (JSONValue, JSONConversion, ISO8601Timestamp) are part of this module's API.
// Re-exporting them lets hosts write `import FalconCore` or `import BinobanCore` alone (Docs/Decisions/0002).
@_exported import SDKCoreCommon
