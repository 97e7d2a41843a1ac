# The india category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
india-circles-failed = I could not get the list of circles ({ $reason }). Nothing was charged. Please try again later with /recharge.
india-ask-circle = Which telecom circle (state) is the connection in?
india-ask-kind = 🇮🇳 India: what do you want to recharge?
india-kind-prepaid = 📱 Prepaid mobile
india-kind-postpaid = 🧾 Postpaid mobile
india-kind-dth = 📡 DTH (TV)
india-ask-operator = { $kind }: which operator?
india-ask-number = Which mobile number? (10 digits; +91 is fine)
india-ask-dth-id-first = Your DTH subscriber id (10 digits) or the registered mobile number:
india-ask-operator-suggested = { $number } is in a number series of { $suggestion }. Numbers can move to another operator, so this is only a suggestion: choose it, or pick your operator.
india-suggested = { $suggestion } (suggested)
india-ask-dth-id = Your { $operator } subscriber id (10 digits) or the registered mobile number:
india-plan = { $amount } · { $details }
india-ask-plan = Choose a plan for { $number }, or type an amount from { $min } to { $max }:
india-plans-unavailable = The plan list is not available right now; you can still type an amount.
india-ask-amount = How much for { $number }? Type an amount from { $min } to { $max }, or choose:
india-confirm-circle = Circle: { $circle }
india-dth-bill-title = 📡 { $operator } subscriber { $number }: { $name }
india-dth-bill-amount = Monthly recharge: { $amount }
india-dth-bill-balance = Balance left: { $amount }
india-dth-bill-due = Next recharge by: { $date }
india-dth-bill-rejected = That subscriber could not be found: { $reason }
    Please check the subscriber id or the registered mobile number.
india-dth-pay-bill = Pay the monthly recharge: { $amount }
india-confirm-subscriber = Subscriber: { $name }
flow-edit-plan = ✏️ Plan / amount
