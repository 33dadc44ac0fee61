// The test kit is used together with BinobanCore; re-exporting it lets tests import the kit alone.
@_exported import BinobanCore
