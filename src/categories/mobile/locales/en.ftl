# The mobile category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
mobile-ask-number = 📱 Which mobile number should I recharge? (10 digits, NTC)
mobile-ncell = That is an Ncell number. Ncell is recharged with a data pack: send /recharge and choose "Data pack".
mobile-detected = ✓ { $operator } (detected)
mobile-ask-operator = Operator for { $number }:
mobile-ask-amount = How much? Type an amount from { $min } to { $max }, or choose:
mobile-operator-mismatch = { $operator } numbers start with { $prefixes }, and { $number } does not. It looks like { $detected } (marked ✓). Which operator is it?
mobile-ask-amount-for = 📱 { $number } · { $operator }
    { mobile-ask-amount }
mobile-line-not-offered = { $number } is an { $operator } number, and { $operator } cannot be recharged right now. Please send another number, or try again later.
