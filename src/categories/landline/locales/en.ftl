# The landline category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
landline-ask-operator = ☎️ Which line do you want to recharge?
landline-ask-number = ☎️ Which { $operator } number? Type its 9 digits without the leading 0.
landline-ask-amount = How much? Type an amount from { $min } to { $max }, or choose:
