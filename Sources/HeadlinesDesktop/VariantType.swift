import CGLibNotify

/// Runs `body` with the GVariant type that `type` spells ("s", "(sss)", "{sv}").
/// `g_variant_type_checked_` hands back the very pointer it is given, so the type is only valid
/// while that string is: a Swift string passed straight to it is a temporary copy, gone when the
/// call returns, and GLib would then read whatever the stack holds there.
func withVariantType<Result>(_ type: String, _ body: (OpaquePointer?) -> Result) -> Result {
    type.withCString { body(g_variant_type_checked_($0)) }
}
