# Core strings. Flow strings are grouped below under their flow's prefix.
# Variables are passed as plain strings, already formatted (amounts by formatMoney: "Rs 1,234.50", "₹299").

start-welcome = Namaste { $name }! I recharge mobiles, data packs, TV, internet, landline, water and electricity bills in Nepal and India.
    Choose what you want to pay, or send /help.
help-text = What I can do:
    /recharge – recharge or pay a bill
    /status – check an order by its reference number
    /history – your last orders, with "repeat"
    /language – change the language
    /cancel – stop what we are doing
    You get a message when an order succeeds or fails.
help-agent = As an agent you can check any order with /status.
help-admin = As an admin you can see the wallet with /balance.
cmd-start = Start
cmd-recharge = Recharge or pay a bill
cmd-status = Check an order
cmd-history = My last orders
cmd-language = Change language
cmd-help = Help
cmd-cancel = Cancel
cmd-balance = Wallet balance (admins)

menu-prompt = What would you like to pay?
menu-mobile = 📱 Mobile top-up
menu-datapack = 📶 Data pack
menu-dth = 📺 TV (DTH)
menu-internet = 🌐 Internet
menu-landline = ☎️ Landline
menu-water = 🚰 Water bill
menu-electricity = 💡 Electricity bill
menu-india = 🇮🇳 India recharge

language-name = English
language-prompt = Choose your language:
language-set = Language set to English.

common-cancel = ✖ Cancel
common-confirm = ✅ Confirm
common-back = ‹ Back
common-prev = ‹
common-next = ›
common-page = { $page }/{ $pages }
common-cancelled = Cancelled. Nothing was charged. Send /recharge to start again.
common-nothing-to-cancel = There is nothing to cancel.
common-idle-ended = Your previous request ended after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } without an answer. Nothing was charged. Send /recharge to start again.
common-send-text = Please answer with a text message or use the buttons.
common-slow-down = You are sending messages very fast. Please wait a few seconds; messages sent meanwhile are ignored.
common-use-buttons = Please choose one of the buttons.
common-button-expired = This button is no longer active.
common-try-again = Please try again:
common-search-hint = You can also type part of the name to search.
common-search-none = Nothing matches "{ $query }". Try another part of the name.
common-search-results = Matches for "{ $query }":
flow-leave-question = Leave this order? What you entered so far will be lost.
flow-keep = ↩ Keep
flow-leave = 🚪 Leave
flow-left = Order left. Nothing was charged.
common-private-only = For your safety, orders are only taken in a private chat with me.
common-unknown-input = I did not understand that. Send /recharge to pay something or /help for help.
common-lookup-failed = The recharge service is not answering right now. Your answers are kept; press Retry or try again in a minute.
common-retry = 🔄 Retry
common-error = Something went wrong on our side. Before you try again, please check /history to see whether your order went through.

err-empty = Please type a value.
err-not-digits = Please use digits only.
err-length = That has { $actual } digits; it needs exactly { $expected }.
err-leading-zero = The number must not start with 0.
err-trunk-zero = Please drop the leading 0: the number is the { $expected } digits after it, and after the 0 you typed { $actual }.
err-india-prefix = An Indian mobile number starts with 6, 7, 8 or 9.
err-phone-mobile-length = That is not a phone number: it starts with 9 like a mobile but has { $actual } digits, and a mobile number has 10. (A landline has 7 to 9 digits and does not start with 9.)
err-phone-landline-length = That is not a phone number: it has { $actual } digits (not counting a leading 0), and a landline has 7 to 9. (A mobile has 10 digits starting with 9.)
err-prefix = That number does not belong to this operator. It must start with { $allowed }.
err-retired-operator = That number belongs to SmartCell, which no longer operates.
err-amount-format = Please type an amount in rupees, for example 100 or 250.50.
err-amount-grouping = A comma can only separate groups of digits, as in 1,000 or 1,00,000; paisa go after a dot, as in 250.50. Please type the amount again.
err-amount-below = The smallest amount is { $min }.
err-amount-above = The largest amount is { $max }.
err-month-range = Please choose a month from the buttons.
err-too-long = That is too long (at most { $max } characters).

confirm-title = Please check your order:
confirm-operator = Operator: { $operator }
confirm-number = Number / account: { $number }
confirm-package = Package: { $package }
confirm-amount = Amount: { $amount }
confirm-fees = Service charge: { $fee }
confirm-fee = Fee: { $fee }
confirm-discount = Discount: −{ $discount }
confirm-total = Total to pay: { $total }
confirm-balance-after = Balance after: { $balance }
balance-short = Your balance is { $balance } and this order costs { $total }: { $shortfall } short. Please add money to your balance (an agent can credit it) and try again.
confirm-question = Pay now?

limit-daily-cap = You have reached today's limit of { $cap } for orders. Please try again tomorrow.
limit-rate = You have placed many orders in the last hour. Please wait a little before the next one.

receipt-processing = 🧾 Order { $ref }
    { $operator } · { $number }
    Amount: { $amount }
    Status: ⏳ processing
receipt-status = 🧾 Order { $ref }
    { $operator } · { $number }
    Amount: { $amount }
    Status: { $status }
receipt-already = This order was already placed: reference { $ref }.
order-checking = ⚠️ Something went wrong on our side while processing order { $ref }. We are checking it with the operator and will send you a message with the outcome. Please do not order it again meanwhile; /status shows where it stands.

status-placed = ⏳ received
status-submitting = ⏳ processing
status-queued = ⏳ queued
status-pending = ⏳ pending
receipt-will-follow = We will send you a message as soon as the operator answers, usually within a few minutes.
status-unknown = ⏳ checking with the operator
status-success = ✅ successful
status-failed = ❌ failed

notify-success = ✅ Order { $ref } succeeded.
    { $operator } · { $number } · { $amount }
notify-failed = ❌ Order { $ref } failed. Nothing was charged.
    { $operator } · { $number } · { $amount }
    Reason: { $reason }
notify-admin-stuck = ⚠️ Order { $ref } ({ $operator }, { $amount }) is still not final after { $minutes } minutes. Please check it with the provider.
notify-reason-unknown = the operator did not complete it

status-prompt = Send the reference number (or the transaction id) of the order.
status-not-found = I found no order with that number.
status-not-yours = I found no order with that number.
status-result = 🧾 Order { $ref }
    { $operator } · { $number }
    Amount: { $amount }
    Status: { $status }
    Placed: { $time }
status-provider-result = Provider says: order { $ref }, { $operator } · { $number }, { $amount }, status: { $status }
status-invalid = A reference number has only digits.

history-empty = You have no orders yet. Send /recharge to make one.
history-title = Your last orders:
history-title-page = Your last orders (page { $page }):
history-item =
    { $time } · { $category }
    { $operator } · { $number } · { $amount } · { $status }
history-repeat = 🔁 Repeat { $number } · { $amount }
history-prev = ⬅️ Previous
history-next = Next ➡️

balance-result = Wallet balance: { $amount }
balance-denied = This command is for admins.

# mobile
mobile-ask-number = 📱 Which mobile number should I recharge? (10 digits, NTC)
mobile-ncell = That is an Ncell number. Ncell is recharged with a data pack: send /recharge and choose "Data pack".
mobile-detected = ✓ { $operator } (detected)
mobile-ask-operator = Operator for { $number }:
mobile-ask-amount = How much? Type an amount from { $min } to { $max }, or choose:

# datapack
datapack-ask-number = 📶 Which mobile number is the pack for? (10 digits, Ncell or NTC)
datapack-family-ncell = Ncell
datapack-family-ntc = NTC
datapack-ask-product = { $number } is an { $family } number. What kind of pack?
datapack-product-data = 📶 Data
datapack-product-voice = 📞 Voice
datapack-product-sms = ✉️ SMS
datapack-product-roaming = ✈️ Roaming
datapack-product-special = ⭐ Sadhain On
datapack-product-recommended = 👍 Recommended
datapack-ask-package = { $operator } packs for { $number } ({ $count }). Choose one:
datapack-package = { $name } · { $amount }
datapack-no-packages = { $operator } has no packs for this number right now. Please choose another kind of pack.
datapack-list-rejected = The packs could not be loaded: { $message }
    Please choose another kind of pack or try again.

# dth
dth-ask-operator = 📺 Which TV (DTH) operator?
dth-ask-customer = Your { $operator } customer id (on the bill or the set-top box screen):
dth-customer-rejected = The operator answered: "{ $message }"
    Please check the customer id and send it again.
dth-customer-info = { $operator } subscriber { $id }:
    { $info }
dth-no-packages = { $operator } offers no packages for this customer right now. Please choose the operator again.
dth-ask-package = Choose a package ({ $count }):
dth-package = { $name } · { $amount }

# internet
internet-ask-isp = 🌐 Which internet provider?
internet-ask-username = Your { $operator } username (customer id):
internet-username-rejected = The provider answered: "{ $message }"
    Please check the username and send it again.
internet-no-packages = { $operator } has no packages for this username right now. Please choose the provider again.
internet-ask-package = { $operator } packages for { $username } ({ $count }). Choose one:
internet-package = { $name } · { $amount }

# status, history, repeat, balance
status-transaction = Transaction id: { $tx }
status-reason = Reason: { $reason }
status-customer = Customer (Telegram id): { $user }
status-wallet = Wallet: { $debit } debited (service charge { $fee }), balance after: { $balance }
balance-unavailable = The recharge service is not answering right now. Please try again in a minute.
repeat-intro = 🔁 Repeating order { $ref }.
repeat-unavailable = This order cannot be repeated any more. Send /recharge to make a new one.
repeat-package-gone = The package "{ $package }" is no longer offered for { $number }. Send /recharge to choose another one.
repeat-lookup-failed = I could not repeat this order: { $message }
    Send /recharge to start again.
repeat-nothing-due = Nothing is due on this bill now. Send /recharge if you want to pay an advance.
repeat-bill-under-way = A payment of this bill (order { $ref }) is still being processed, so I will not pay it again now. You will get a message with its result; then check /history.
repeat-bill = Bill of { $name }: { $amount } due now.

# landline
landline-ask-operator = ☎️ Which line do you want to recharge?
landline-ask-number = ☎️ Which { $operator } number? Type its 9 digits without the leading 0.
landline-ask-amount = How much? Type an amount from { $min } to { $max }, or choose:

# bill (shared by the water and electricity flows)
bill-offices-failed = I could not get the list of offices ({ $reason }). Nothing was charged. Please try again later with /recharge.
bill-account-invalid = Please use only letters, digits and . - _ / (no spaces).
bill-month-1 = Baisakh
bill-month-2 = Jestha
bill-month-3 = Asar
bill-month-4 = Shrawan
bill-month-5 = Bhadra
bill-month-6 = Asoj
bill-month-7 = Kartik
bill-month-8 = Mangsir
bill-month-9 = Poush
bill-month-10 = Magh
bill-month-11 = Falgun
bill-month-12 = Chaitra
bill-field-previous = previous dues { $amount }
bill-field-current = this month { $amount }
bill-field-amount = bill { $amount }
bill-field-fine = fine { $amount }
bill-field-penalty = late fee { $amount }
bill-field-discount = discount { $amount }
bill-field-total = total { $amount }
bill-field-payable = payable { $amount }
bill-row = • { $heading }: { $details }
bill-address = Address: { $address }
bill-total = Total due: { $amount }
bill-nothing-due = Nothing is due on this account right now.
bill-ask-amount = Pay the due of { $due }, or type another amount (up to { $max }), for example to pay in advance:
bill-pay-due = 💳 Pay the due { $amount }
bill-ask-advance = You can pay in advance: type an amount up to { $max }.
bill-confirm-office = Office: { $office }
bill-confirm-customer = Customer: { $name }
bill-confirm-due = Bill due: { $amount }

# water
water-ask-operator = 🚰 Which water operator?
water-ask-office = 🚰 { $operator }: which office is your water connection with?
water-ask-customer = Your customer id at { $office } (as printed on the water bill):
water-ask-month = For which month?
water-bill-rejected = The water office could not check that bill: { $reason }
    Please check the customer id.
water-bill-title = 🚰 Water bill of { $name } ({ $month })
water-confirm-month = Month: { $month }

# electricity
electricity-ask-operator = 💡 Which electricity operator?
electricity-ask-office = 💡 { $operator }: which distribution centre (office) is your meter with?
electricity-ask-sc = Your SC number at { $office } (service connection number, on the bill):
electricity-ask-customer = Your customer id (on the bill):
electricity-ask-phone = A phone number for this bill: a mobile (10 digits starting with 9) or a landline (7 to 9 digits with its area code).
electricity-phone-invalid = That is not a phone number: a mobile has 10 digits starting with 9; a landline has 7 to 9 digits (not counting a leading 0) and does not start with 9.
electricity-bill-rejected = The electricity office could not check that bill: { $reason }
    Please check the SC number and the customer id.
electricity-bill-title = 💡 Electricity bill of { $name } (SC { $sc })
electricity-confirm-sc = SC number: { $sc }
electricity-confirm-phone = Phone: { $phone }

# india
india-circles-failed = I could not get the list of circles ({ $reason }). Nothing was charged. Please try again later with /recharge.
india-ask-circle = 🇮🇳 Which telecom circle (state) is the connection in?
india-ask-kind = Circle: { $circle }. What do you want to recharge?
india-kind-prepaid = 📱 Prepaid mobile
india-kind-postpaid = 🧾 Postpaid mobile
india-kind-dth = 📡 DTH (TV)
india-ask-operator = { $kind }: which operator?
india-ask-number = Which { $operator } number? (10 digits; +91 is fine)
india-ask-dth-id = Your { $operator } subscriber id (10 digits) or the registered mobile number:
india-plan = { $amount } · { $details }
india-ask-plan = Choose a plan for { $number }, or type an amount from { $min } to { $max }:
india-plans-unavailable = The plan list is not available right now; you can still type an amount.
india-ask-amount = How much for { $number }? Type an amount from { $min } to { $max }, or choose:
india-confirm-circle = Circle: { $circle }
dth-invalid-customer = A customer id has only letters, digits and . _ - / @ (no spaces).
internet-invalid-username = A username has only letters, digits and . _ - / @ (no spaces).

# --- h-flows (issue 16: Back, Edit at the confirmation, operator mismatch, limits up front) ---
flow-edit-number = ✏️ Number
flow-edit-amount = ✏️ Amount
flow-edit-package = ✏️ Package
flow-edit-customer = ✏️ Customer id
flow-edit-plan = ✏️ Plan / amount
mobile-operator-mismatch = { $number } is not a { $operator } number: those start with { $prefixes }. It looks like { $detected } (marked ✓). Which operator is it?
bill-due-over-limit = The due is more than you may still pay today ({ $left }): you can pay part of it now.
common-idle-ended-seconds = Your previous request ended after { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } without an answer. Nothing was charged.
common-start-again = 🔁 Start again
