# Core strings. Flow strings are grouped below under their flow's prefix.
# Variables are passed as plain strings, already formatted (amounts by formatMoney: "Rs 1,234.50", "₹299").

start-welcome = Namaste { $name }! I recharge mobiles, data packs, TV, internet, landline, water and electricity bills in Nepal and India.
help-text = What I can do:
    /recharge – recharge or pay a bill
    /status – check an order by its reference number
    /history – your last orders, with reference, total and "repeat"; /history 2026-10 shows one month, /history 9841234567 one number
    /saved – your saved numbers and accounts
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
cmd-balance = My balance

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
common-cancelled-whatsapp = Cancelled. Nothing was charged. Type "{ $recharge }" to start again.
common-nothing-to-cancel = There is nothing to cancel.
common-idle-ended = Your previous request ended after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } without an answer. Nothing was charged.
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
flow-left = Left. Nothing was charged.
flow-left-over = That had already ended before this tap, so nothing was left or cancelled by it: an order confirmed there goes on (/history shows your orders).
flow-other-account = The request open in this chat was started by another account, so it has ended here. Send /start to begin.
flow-other-account-linked = This chat now uses another account (a /link join was made or ended, by you or by the account's owner), so the request you started with the account it used before has ended here: nothing more of it was done. Send /start to begin.
common-private-only = For your safety, orders are only taken in a private chat with me.
common-unknown-input = I did not understand that. Send /recharge to pay something or /help for help.
common-unknown-input-whatsapp = I did not understand that. Type "{ $recharge }" to pay something, or "{ $help }" for help.
common-media-whatsapp = I can read only text messages and buttons, not pictures, files, voice notes or stickers. Please type what you need: "{ $recharge }" to pay something, or "{ $help }" for help.
common-lookup-failed = The recharge service is not answering right now. Your answers are kept; press Retry or try again in a minute.
common-retry = 🔄 Retry
common-error = Something went wrong on our side. Before you try again, please check /history to see whether your order went through.

err-empty = Please type a value.
err-not-digits = Please use digits only.
err-length = That has { $actual ->
        [one] { $actual } digit
       *[other] { $actual } digits
    }; it needs exactly { $expected }.
err-leading-zero = The number must not start with 0.
err-trunk-zero = Please drop the leading 0: the number is the { $expected } digits after it, and after the 0 you typed { $actual }.
err-india-prefix = An Indian mobile number starts with 6, 7, 8 or 9.
err-phone-mobile-length = That is not a phone number: it starts with 9 like a mobile but has { $actual ->
        [one] { $actual } digit
       *[other] { $actual } digits
    }, and a mobile number has 10. (A landline has 7 to 9 digits and does not start with 9.)
err-phone-landline-length = That is not a phone number: it has { $actual ->
        [one] { $actual } digit
       *[other] { $actual } digits
    } (not counting a leading 0), and a landline has 7 to 9. (A mobile has 10 digits starting with 9.)
err-prefix = That number does not belong to this operator. It must start with { $allowed }.
err-retired-operator = That number belongs to SmartCell, which no longer operates.
err-india-number = That is an Indian number. Indian numbers are recharged with 🇮🇳 India recharge (send /recharge); here, please type a Nepal number.
err-foreign-number = Only Nepal numbers can be paid here: please type the number without another country's code.
err-amount-format = Please type an amount in rupees, for example 100 or 250.50.
err-amount-grouping = A comma can only separate groups of digits, as in 1,000 or 1,00,000; paisa go after a dot, as in 250.50. Please type the amount again.
err-amount-currency = { $asked ->
    [in] This amount is asked in Indian rupees (₹), and you typed Nepal rupees. Please type the amount in ₹ without Rs, e.g. 500.
   *[np] This amount is asked in Nepal rupees (Rs), and you typed Indian rupees. Please type the amount in Rs without ₹, e.g. 500.
}
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
confirm-price-changed = The price changed since this confirmation was shown (a new rate or price list). Nothing was charged; the order is checked again at the new price.
confirm-total-inr = Total: { $total }
confirm-pay-npr = To pay from your balance: { $npr } (₹1 = Rs { $rate })
balance-short = Your balance is { $balance } and this order costs { $total }: { $shortfall } short. Please add money to your balance (an agent can credit it) and try again.
confirm-question = Pay now?

limit-daily-cap = You have reached today's limit of { $cap } for orders. It resets at midnight: you can order again from { $time }.
limit-daily-cap-order = This order counts { $total } towards today's limit of { $cap }, and { $left } of it is left today: you can order up to { $left } now, or this order from { $time }.
limit-daily-cap-order-india = Today's limit is in Nepali rupees: this order of { $amount } counts { $total } (converted, service charge included) towards today's limit of { $cap }, and { $left } of it is left today. You can order now an amount whose converted total is up to { $left }, or this order from { $time }.
limit-rate = You have reached your limit of orders per hour ({ $count }); the next one from { $time }.
package-over-limit = Packs that cost more than you may still pay today are not shown.
package-none-today = None of these packs fits what you may still pay today ({ $left }); the limit resets at midnight.

receipt-processing = 🧾 Order { $ref }
    { $operator } · { $number }
    Amount: { $amount }
    Status: ⏳ processing
receipt-status = 🧾 Order { $ref }
    { $operator } · { $number }
    Amount: { $amount }
    Status: { $status }
receipt-already = This order was already placed: reference { $ref }.
confirm-placed-already = This order was already placed: reference { $ref }, status { $status }. It is not placed or charged again; /status shows where it stands.
order-checking = ⚠️ Something went wrong on our side while processing order { $ref }. We are checking it with the operator and will send you a message with the outcome. Please do not order it again meanwhile; /status shows where it stands.

status-placed = ⏳ received
status-submitting = ⏳ processing
status-queued = ⏳ queued
status-pending = ⏳ pending
# On a receipt, queued and pending read alike: both mean the order is with the operator and not
# final yet (a move between them is not sent to the chat; src/orders/model.ts RECEIPT_RANK).
receipt-status-open = ⏳ with the operator
receipt-will-follow = We will send you a message as soon as the operator answers, usually within a few minutes.
status-staff-follow = Not final yet: whoever ordered it gets a message as soon as the operator answers.
status-unknown = ⏳ checking with the operator
status-success = ✅ successful
status-failed = ❌ failed

notify-success = ✅ Order { $ref } succeeded.
    { $operator } · { $number } · { $amount }
notify-failed = ❌ Order { $ref } failed. Nothing was charged.
    { $operator } · { $number } · { $amount }
    Reason: { $reason }
notify-admin-stuck = ⚠️ Order { $ref } ({ $operator }, { $amount }) is still not final after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }. Please check it with the provider.
notify-admin-contradicted-failed = ⚠️ Order { $ref } ({ $operator }, { $number }, { $amount }) was recorded as successful and the customer was charged for it, but the aggregator now says it failed. { $owed } Check the order with the aggregator (its wallet should show the amount credited back). Nothing was moved automatically: a correction needs an admin.
notify-admin-contradicted-success = ⚠️ Order { $ref } ({ $operator }, { $number }, { $amount }) was recorded as failed and the customer was not charged, but the aggregator now says it succeeded: the merchant's wallet at the aggregator was debited without a charge to the customer. Check the order with the aggregator. Nothing was moved automatically: a correction needs an admin.
notify-admin-reversed = ⚠️ Order { $ref } ({ $operator }, { $number }, { $amount }) was recorded as successful and the customer was charged for it, but the aggregator now answers "{ $word }": it reversed the recharge and took the money back (or will). { $owed } Check the order with the aggregator (its wallet should show the amount credited back). Nothing was moved automatically: a correction needs an admin.
notify-admin-reversed-settled = ⚠️ Order { $ref } ({ $operator }, { $number }, { $amount }) was settled as successful by admin { $admin } and the customer was charged for it, but the aggregator now answers "{ $word }": it reversed the recharge and took the money back (or will). { $owed } Check the order with the aggregator (its wallet should show the amount credited back). Nothing was moved automatically: a correction needs an admin.
# What the contradiction alerts above say of the money ($owed): a complaint refund already
# booked for the order is told as paid, else the customer may be owed one (review s33-rvcomp 5).
notify-admin-refund-owed = The customer may be owed a refund.
notify-admin-refund-paid = Complaint { $complaint } already refunded { $paid } of it to the customer ({ $time }): do not refund that again.
notify-reason-unknown = the operator did not complete it

status-prompt = Send the reference number (or the transaction id) of the order.
lookup-cancelled = Cancelled: nothing was looked up. This changes nothing about any order or payment; /history shows your orders.
lookup-ended = Stopped: nothing was looked up. This changes nothing about any order or payment; /history shows your orders.
lookup-leave-question = Stop this look-up?
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
    { $operator } · { $number } · { $status }
    Total: { $total } · Ref: { $ref }
history-repeat = 🔁 Repeat { $number } · { $amount }
history-prev = ⬅️ Previous
history-next = Next ➡️

balance-result = Wallet balance: { $amount }
balance-admin-own = 💳 Your own balance (it pays your own orders): { $available }
balance-denied = This command is for admins.

# status, history, repeat, balance
status-transaction = Transaction id: { $tx }
status-reason = Reason: { $reason }
status-customer = Customer (Telegram id): { $user }
status-customer-whatsapp = Customer (WhatsApp account id): { $user }
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

# --- h-catalog: the provider's catalogue and the India DTH bill (issue 16) ---
catalog-category-withdrawn = Sorry, nothing in this category is on offer right now. Nothing was charged. Please choose another with /recharge.
catalog-operator-withdrawn = Sorry, { $operator } is no longer on offer, so this order was not placed and nothing was charged. Please start again with /recharge.
# --- issue 15: receipts and pushes with the money (h-books) ---
receipt-title = 🧾 Order { $ref }
receipt-line-tx = Transaction id: { $tx }
receipt-line-time = Date: { $time }
receipt-line-category = Service: { $category }
receipt-line-package = Package: { $package }
receipt-line-month = Bill month: { $month }
receipt-line-main = { $operator } · { $number } · { $amount }
receipt-line-fee = Fee: { $fee }
receipt-line-discount = Discount: −{ $discount }
receipt-line-total = Total: { $total }
receipt-line-total-paid = Total paid: { $total }
receipt-line-balance = Balance after: { $balance }
# A successful order refunded on a complaint (review s33-rvtruth 7): the refund, and for a part
# refund what the customer paid in the end.
receipt-line-refunded = Refunded { $refund } on { $time } (complaint { $complaint })
receipt-line-paid-in-end = Paid in the end: { $paid }
receipt-line-held-npr = Held from your balance: { $npr } (₹1 = Rs { $rate })
receipt-line-paid-npr = Paid { $npr } from your balance (₹1 = Rs { $rate })
receipt-line-status = Status: { $status }
notify-title-success = ✅ Order { $ref } succeeded.
notify-title-failed = ❌ Order { $ref } failed.
notify-returned = { $total } has been returned to your balance.
notify-nothing-charged = Nothing was charged.
notify-reason = Reason: { $reason }
notify-service-unavailable = the service is briefly unavailable; please try again in a little while
# --- end issue 15 (h-books) ---

# --- issue 15: the admin's books, /books (h-books) ---
cmd-books = The merchant's books (admins)
books-title = 📒 Books at { $time }
books-customers = Customers' balances, posted (incl. held): { $balance } (of which held for orders in flight: { $held }; { $count ->
        [one] { $count } account
       *[other] { $count } accounts
    })
books-agents = Agents' balances, posted (incl. held): { $balance } ({ $count ->
        [one] { $count } account
       *[other] { $count } accounts
    })
books-fees = Fee income: { $fees }
books-margin = Margin: { $margin } on { $orders ->
        [one] { $orders } order
       *[other] { $orders } orders
    } (commission reported: { $commission })
books-refunds = Refunded on complaints: { $count ->
        [one] { $count } refund
       *[other] { $count } refunds
    }, { $sum } (fees in it: { $fee }); the margin and fee income above are after them.
books-refunds-unread = ⚠️ { $count ->
        [one] { $count } refund
       *[other] { $count } refunds
    } ({ $sum }) whose order could not be read: their fee share is unknown and still in the fee income above (at most { $sum }).
books-refunds-out-of-margin = { $count ->
        [one] { $count } refund
       *[other] { $count } refunds
    } ({ $sum }) of orders booked with no aggregator debit: left out of the margin, as those orders are.
books-float = Wallet at the aggregator: the books expect { $expected }, it reports { $reported } (debits not yet booked: { $flying })
books-drift = Difference: { $drift } (tolerance { $tolerance })
books-balanced = ✅ The books balance: every account sums to zero.
books-unbalanced = ❌ The books do not balance: { $problems ->
        [one] { $problems } problem
       *[other] { $problems } problems
    }. Check the journal.
books-unknown = unknown
# --- end /books (h-books) ---
# --- top-up: adding money with Khalti (issue 17) ---
topup-button = ➕ Add money
topup-ask-amount = How much do you want to add to your balance? Type an amount from { $min } to { $max }, or choose:
topup-not-offered = Adding money online is not available here. An agent can add money to your balance.
topup-gateway-down = Khalti is not answering right now. Nothing was charged. Please try again in a few minutes with /addmoney.
topup-refused = Adding money online is not available right now. Nothing was charged, and our team has been told. An agent can add money to your balance meanwhile.
topup-daily-cap = You can add at most { $remaining } more today.
topup-pay-button = Pay with Khalti
topup-checkout = To add { $amount }, tap "Pay with Khalti" and pay in the browser (Khalti wallet, e-banking, mobile banking or card). The link works for a limited time.
    When Khalti confirms the payment, I add the amount to your balance and tell you here. If you cancel or the link expires, nothing is added.
topup-credited = ✅ { $amount } added to your balance. Balance: { $balance }
topup-expired = The payment link for { $amount } expired. Nothing was added.
topup-cancelled = The payment of { $amount } was cancelled. Nothing was added.
topup-refunded = Khalti refunded your payment of { $amount }; { $reversed } was taken back from your balance. Balance: { $balance }
# --- h-partial: a partial refund at Khalti (the admin enters the amount returned) ---
topup-refund-partial = Khalti reports that part of your payment of { $amount } was refunded. Our team is checking how much; your balance is unchanged for now. We will message you here when it is done.
topup-refunded-part = Khalti refunded { $returned } of your payment of { $amount }; { $reversed } was taken back from your balance. Balance: { $balance }
# --- h-partial2: a refund whose amount Khalti does not say, credited or not ---
topup-refund-unknown = Khalti reports that your payment of { $amount } was refunded, but not how much. Our team is checking; your balance is unchanged for now. We will message you here when it is done.
topup-refunded-rest = Khalti refunded { $returned } of your payment of { $amount }; the remaining { $credited } was added to your balance. Balance: { $balance }
topup-refunded-uncredited = Khalti refunded your payment of { $amount } before it was added to your balance: nothing was added or taken back. Balance: { $balance }
# --- h-payfee: a refund's rest the balance lacked, taken back later (review s31-pay, 4b) ---
topup-refund-owed = Your balance was short of it: the rest, { $owed }, is taken back from your balance as money comes into it (money you add, or an order's payment given back).
topup-refund-taken = Khalti refunded your payment of { $amount } earlier, when your balance was short of it: { $taken } more was now taken back from your balance; { $owed } is still to be taken back. Balance: { $balance }
topup-refund-taken-all = Khalti refunded your payment of { $amount } earlier, when your balance was short of it: the rest, { $taken }, was now taken back from your balance; nothing more is owed. Balance: { $balance }
writeoff-usage = Send /writeoff <payment id> <reason>: it writes off what a refunded top-up still owes back (the customer's balance was short at the refund), booked from merchant:adjustments with the reason, and stops taking it back.
writeoff-done = Written off { $amount } of top-up { $pid } (user { $user }): booked from merchant:adjustments with your reason; nothing more is taken back from the customer.
writeoff-nothing = Top-up { $pid } owes nothing back (not refunded, taken back in full, or written off already): nothing was booked.
writeoff-unknown = There is no top-up { $pid }: nothing was booked.
writeoff-refused = The books refused the write-off of top-up { $pid }: nothing was booked. Please look at it.
topup-rejected-refund = Khalti reports your payment of { $amount } refunded, in whole or in part. Our team could not add any of it to your balance; nothing was added. If Khalti kept part of it, the shop refunds that part through Khalti; ask the shop if it has not arrived.
help-topup = /addmoney – add money to your balance with Khalti
cmd-addmoney = Add money
# ---- accounts: registration, access modes, cash-in, credit, reversal, /balance (issue 15, h-accounts) ----
cmd-register = Register with my phone number
cmd-cashin = Cash-in for a customer (agents)
cmd-credit = Credit an agent (admins)
cmd-reverse = Reverse a cash-in or credit (admins)
register-button = 📱 Share my phone number
register-prompt = To order, register with your own phone number: tap "📱 Share my phone number" below. A shop finds your account by this number when you pay them cash.
register-already = You are registered with { $phone }.
register-not-yours = That is not your own contact. Only your own number can register you: tap "📱 Share my phone number" below.
register-bad-number = That phone number cannot be read. Tap "📱 Share my phone number" below to try again.
register-done = ✅ Registered with { $phone }. A shop can now add money to your balance by this number (see /balance); then /recharge.
register-done-staff = ✅ Registered with { $phone }.
access-register = Please register first: tap "📱 Share my phone number" below. Nothing was ordered or charged.
access-private = This bot is private: only the merchant's staff can order here. Nothing was ordered or charged.
party-customer = customer { $who }
party-agent = agent { $who }
party-merchant = the merchant's funds
accounts-failed = Not done: that receipt number was already used for something else. Nothing was moved; please start again.
cashin-denied = /cashin is for agents.
role-gone = Not done: { $command } is no longer yours to use (the shop changed who may). Nothing was moved: no balance changed.
cashin-staff-mode = Cash-ins are off: this shop's orders are paid from the merchant's wallet, so a customer has no balance to spend here. Take no cash for it; nothing was moved.
cashin-ask-phone = 💵 Cash-in: the customer's phone number? (10 digits such as 9841234567, or +91 and the number for India)
cashin-bad-phone = That is not a phone number: type the 10 digits (9841234567) or the number with its country code (+977…, +91…).
cashin-unknown-phone = Nobody is registered with { $phone }. Ask the customer to send /register to this bot, or check the number.
cashin-self = That is your own number: a cash-in is for a customer.
cashin-no-balance = Your agent balance is { $balance }: there is nothing to cash in from. Ask an admin to credit you.
cashin-ask-amount = How much cash did you take? From { $min } to { $max } (your balance).
cashin-ask-amount-capped = How much cash did you take? From { $min } to { $max } (the most one cash-in may be; your balance is { $balance }).
cashin-confirm = Add { $amount } to the balance of { $phone }?
    Your balance after: { $after }
    Receipt: { $ref }
cashin-done = ✅ Cash-in done: { $amount } to { $phone }.
    Your balance: { $balance }
    Receipt: { $ref }
cashin-received = 💰 { $amount } was added to your balance (cash paid at a shop).
    Your balance: { $balance }
    Receipt: { $ref }
cashin-short = Not done: the balance is { $balance }, { $shortfall } short. Nothing was moved.
credit-denied = /credit is for admins.
credit-no-agents = No agents are configured (AGENT_IDS).
credit-ask-agent = Credit which agent? Tap one, or type their Telegram id.
credit-bad-agent = { $id } is not an agent: tap one of the agents, or type an agent's Telegram id.
credit-ask-amount = How much did agent { $agent } pay in? From { $min } to { $max }.
credit-confirm = Credit agent { $agent } with { $amount }?
    Receipt: { $ref }
credit-done = ✅ Agent { $agent } credited with { $amount }.
    Their balance: { $balance }
    Receipt: { $ref }
credit-received = 💰 The merchant credited your agent balance with { $amount }.
    Your balance: { $balance }
    Receipt: { $ref }
reverse-denied = /reverse is for admins.
reverse-ask-id = Which receipt should be reversed? Type its number as the receipt shows it.
reverse-unknown = There is no cash-in or credit with receipt { $ref }. Check the number and type it again.
reverse-not-reversible = Receipt { $ref } is itself a reversal and cannot be reversed.
reverse-already = Receipt { $ref } was already reversed (receipt { $rev }). Nothing was moved.
reverse-show = Receipt { $ref }: { $amount } from { $from } to { $to }, { $time }.
reverse-ask-reason = Why is it reversed? A few words; they are kept in the books.
reverse-bad-reason = Please give a reason of 3 to 200 characters.
reverse-confirm = Reverse receipt { $ref }: { $amount } back from { $to } to { $from }?
    Reason: { $reason }
reverse-done = ✅ Reversed: { $amount } back from { $to } to { $from }.
    Receipt: { $rev }
reverse-refused = Refused: { $to } has { $balance } left, { $shortfall } short of the { $amount } to reverse. Nothing was moved.
reverse-notice = ↩️ The merchant reversed { $amount } of receipt { $ref }: { $reason }
    Your balance: { $balance }
balance-customer = 💰 Your balance: { $available }
balance-held = Held for orders under way: { $held }
balance-movements = Last movements:
balance-none = No movements yet.
balance-unregistered = You are not registered yet: send /register to share your phone number; then a shop can add money to your balance by it.
balance-how-to-add = To add money, pay cash at a shop: they credit your number { $phone }.
balance-agent = 🏪 Your agent balance: { $available }
balance-agent-own = 💳 Your own balance (it pays your own orders): { $available }
balance-agent-today = Cash-ins today: { $count }, { $total } in all.
balance-agent-line = { $time } · { $amount } to { $customer }
balance-books = The merchant's books: /books
movement-hold = { $time } · −{ $amount } held for order { $ref }
movement-post = { $time } · { $amount } paid for order { $ref }
movement-void = { $time } · +{ $amount } released: order { $ref } failed
movement-cash-in = { $time } · +{ $amount } cash paid at a shop
movement-demo = { $time } · +{ $amount } demo credit
movement-topup = { $time } · +{ $amount } online top-up
movement-reversal = { $time } · −{ $amount } taken back by the merchant (a reversal)
movement-in = { $time } · +{ $amount } credited
movement-out = { $time } · −{ $amount } debited
balance-partial = The list of movements is too long to show here right now; the balance above is exact.
balance-staff = Your orders are paid from the merchant's wallet: you have no balance of your own here.
help-accounts = /balance – your balance and last movements
    /register – register with your own phone number (a shop adds money to your balance by it)
help-agent-cashin = /cashin – a customer paid you cash: add it to their balance by their phone number. /balance shows your agent balance and today's cash-ins.
help-admin-accounts = /credit – credit an agent who paid in; /reverse – reverse a cash-in or a credit, with a reason.
# --- h-flows (issue 16: Back, Edit at the confirmation, operator mismatch, limits up front) ---
flow-edit-number = ✏️ Number
flow-edit-amount = ✏️ Amount
flow-edit-package = ✏️ Package
flow-edit-customer = ✏️ Customer id
confirm-use-buttons = Please use the buttons below: ✅ Confirm, ✏️ Edit or ✖ Cancel.
confirm-use-buttons-no-edit = Please use the buttons below: ✅ Confirm or ✖ Cancel.
bill-due-over-limit = The due is more than you may still pay today ({ $left }): you can pay part of it now.
common-idle-ended-seconds = Your previous request ended after { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    } without an answer. Nothing was charged.
common-start-again = 🔁 Start again

## India orders and a prepaid balance (kept in Nepal rupees; no exchange rate yet)

# ---- saved numbers and billers (/saved, "Save as…"; issue 16) ----
cmd-saved = My saved numbers
saved-save-as = 🏷 Save as…
saved-another = ➕ Another account
saved-ask-biller = Pay one of your saved accounts, or another one?
saved-empty = You have no saved numbers yet. A number is saved when an order to it succeeds.
saved-title = Your saved numbers and accounts:
saved-choose = Choose one to rename or delete it.
saved-entry = { $entry }: rename or delete?
saved-rename = ✏️ Rename
saved-delete = 🗑 Delete
saved-ask-nickname = What should I call { $number }? Type a name of up to 24 characters, for example Aama or Shop landline.
saved-nickname-empty = The name is empty.
saved-nickname-too-long = That name is too long (at most 24 characters).
saved-nickname-control = A name cannot contain control characters.
saved-named = Saved as { $entry }. It is offered next time; /saved renames or deletes it.
saved-renamed = Renamed: { $entry }.
saved-gone = That saved number is gone (it was deleted in the meantime).
saved-flow-cancelled = Cancelled: your saved numbers are as they were (/saved shows them). This changes nothing about any order or payment.
saved-flow-ended = Stopped: your saved numbers are as they were (/saved shows them). This changes nothing about any order or payment.
saved-leave-question = Stop this? Your saved numbers stay as they are.
saved-delete-question = Delete { $entry } from your saved numbers?
saved-delete-yes = 🗑 Yes, delete
saved-delete-keep = ↩ Keep it
saved-kept = { $entry } stays saved.
saved-deleted = Deleted { $entry }.

# --- h-topup: held top-ups (issue 25) ---
topup-held = Your payment of { $amount } is being checked by our team before it is added to your balance. Nothing is lost: we will message you here when it is done.
topup-held-status = We are checking your payment of { $amount } with Khalti: its answer was not clear. Nothing has been added to your balance yet. If the payment went through, our team adds it or has Khalti return it; we will message you here.
topup-held-paid = Your payment of { $paid } (you asked to add { $asked }) is being checked by our team before it is added to your balance. Nothing is lost: we will message you here when it is done.
topup-rejected = Our team could not add your payment of { $amount } to your balance; nothing was added. If money was taken from your Khalti account, the shop refunds it through Khalti; ask the shop if it has not arrived.
topup-rejected-paid = Our team could not add your payment of { $paid } (you asked to add { $asked }) to your balance; nothing was added. If money was taken from your Khalti account, the shop refunds it through Khalti; ask the shop if it has not arrived.
cmd-topups = Held top-ups: decide
cmd-writeoff = Write off a refund the balance never covered
# /topups' held top-ups (admins): the buttons, and a credit refused on the figure shown (h-khalti3)
topup-held-credit-asked = Credit { $amount } (asked)
topup-held-credit-paid = Credit { $amount } (paid)
topup-held-credit-reported = Credit { $amount } (reported)
topup-held-reject = Reject (refund at the gateway)
topup-held-figure-changed = { $pid }: { $gateway } now reports { $now }, not the { $shown } the message showed: nothing was credited. The buttons below show the new figure; decide again.
topup-held-figure-changed-decided = { $pid }: { $gateway } now reports { $now }, not the { $shown } the message showed: nothing was credited by this press. It is no longer held (another decision was taken): send /topups to see what is left.
topup-held-stale-button = { $pid }: this button does not carry the figure it showed: nothing was credited. Send /topups for the current buttons.
topup-held-not-completed = { $pid }: { $gateway } does not report this payment as completed: it now says { $said }. Nothing was credited. Try again once it says Completed, or reject it.
topup-held-not-completed-final = { $pid }: { $gateway } now says { $said }: it will not say Completed. Nothing was credited. Reject it, and refund in { $gateway }'s merchant dashboard any money it kept.
# /topups' own lines (admins; h-kfix): a held top-up's facts, the refusals and outcomes of a
# decision, the open ones past the refund watch, and the records that could not be read
topup-held-title = Held top-up { $pid } ({ $gateway }), user { $user }.
topup-held-asked = Asked { $asked }; the { $gateway } lookup reports { $reported } (txn { $txn }).
topup-held-asked-order = Asked { $asked }; the { $gateway } lookup reports { $reported } for order { $order } (txn { $txn }).
topup-held-why = Why: { $why }.
topup-held-why-amount = the amount differs from what was initiated
topup-held-why-cap = it is above what TOPUP_MAX_AMOUNT / TOPUP_DAILY_CAP allow
topup-held-why-currency = another currency
topup-held-why-merchant = another order id
topup-held-why-status = its status word is not one the gateway documents: whether it was paid is not known
topup-held-said = The { $gateway } lookup said status "{ $said }". Check the payment in its merchant dashboard; a credit is made only once the lookup says Completed.
topup-held-credited = { $pid }: Credited { $amount } by you; the customer was told.
topup-held-rejected = { $pid }: Rejected by you: nothing credited. Refund it in { $gateway }'s merchant dashboard; the customer was told.
topup-held-refused-unknown = { $pid }: No such top-up.
topup-held-refused-not-held = { $pid }: Not held any more: another decision was taken.
topup-held-refused-paid-less = { $pid }: Less was paid than asked: crediting what was asked would add money nobody paid.
topup-held-refused-above-cap = { $pid }: Above TOPUP_MAX_AMOUNT or what TOPUP_DAILY_CAP leaves today: not credited.
topup-held-refused-currency = { $pid }: Paid in another currency: credit what was asked or reject.
topup-held-refused-ledger-refused = { $pid }: The books refused the credit (see the alert): nothing was written.
topup-held-refused-gateway-disagrees = { $pid }: The gateway no longer reports this payment as completed with that amount (refunded or changed): not credited.
topup-held-refused-gateway-unavailable = { $pid }: The gateway did not answer: nothing credited; try again later.
topup-past-watch-title = Open past the refund watch (nothing credited; looked up daily; check them in the gateway's merchant dashboard):
topup-past-watch-line = { $pid } ({ $gateway }, { $id }): user { $user }, { $amount }, { $status }, { $age } old
topup-past-watch-initiated = initiated
topup-past-watch-pending = pending
topup-age = { $days } d { $hours } h
topup-unreadable-count = { $count } { $count ->
        [one] top-up record could not be read
       *[other] top-up records could not be read
    } (see the log): { $ids }.
topup-unreadable-what = They are no longer looked up, credited, reversed or alerted on: check each payment in the gateway's merchant dashboard and tell the developers.

# --- issue 25: /books says what the check did, inferred debits (h-float) ---
books-drift-now = ⚠️ The difference is beyond the tolerance now.
books-drift-unknowns = ⚠️ The difference is beyond the tolerance, but the debit of { $count ->
        [one] { $count } order
       *[other] { $count } orders
    } is not known yet: no verdict.
books-inferred = Debits inferred from the order (the aggregator's answer was lost): { $count ->
        [one] { $count } order
       *[other] { $count } orders
    }, { $sum }
books-check-never = The books check has not run yet: no admin was alerted.
books-check-within = Last check { $time }: within the tolerance, no alert needed.
books-check-deferred = Last check { $time }: no verdict, the debit of { $count ->
        [one] { $count } order
       *[other] { $count } orders
    } was not known yet; no alert sent.
books-check-no-report = Last check { $time }: no verdict, the aggregator's wallet did not answer; no alert sent.
books-check-beyond-alerted = Last check { $time }: beyond the tolerance; { $admins ->
        [one] { $admins } admin was
       *[other] { $admins } admins were
    } alerted at { $alerted }.
books-check-beyond-silent = Last check { $time }: beyond the tolerance; no alert was sent.
books-check-unbalanced-alerted = Last check { $time }: the books do not balance ({ $wallet }); { $admins ->
        [one] { $admins } admin was
       *[other] { $admins } admins were
    } alerted at { $alerted }.
books-check-unbalanced-silent = Last check { $time }: the books do not balance ({ $wallet }); no alert was sent.
books-check-wallet = { $state ->
        [within] the wallet's difference was within the tolerance
        [deferred] no verdict on the wallet: the debit of { $count ->
            [one] { $count } order
           *[other] { $count } orders
        } was not known yet
       *[no_report] no verdict on the wallet: the aggregator's wallet did not answer
    }
books-check-no-admins = No admin is configured (ADMIN_IDS): alerts reach nobody.
books-raised-none = Alerts standing now: none.
books-raised-title = { $count ->
        [one] One alert stands now:
       *[other] { $count } alerts stand now:
    }
books-raised-drift = ⚠️ Float drift: the books expect { $expected }, the aggregator reports { $reported }; difference { $drift } (tolerance { $tolerance }).
books-raised-unbalanced = ⚠️ The books do not balance: { $problems ->
        [one] { $problems } problem
       *[other] { $problems } problems
    } (sum of posted balances { $posted }, of pending { $pending }).
books-raised-no-verdict-debits = ⚠️ No verdict from the books check for { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    }: at its last try the debit of { $count ->
        [one] { $count } order
       *[other] { $count } orders
    } was not known yet.
books-raised-no-verdict-wallet = ⚠️ No verdict from the books check for { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    }: at its last try the aggregator's wallet did not answer.
books-raised-low-float = ⚠️ Low float: the wallet at the aggregator is { $balance } now (alert below { $threshold }); the alert stands until an order's answer shows it at or above that.
books-raised-sent = { $admins ->
        [one] { $admins } admin was
       *[other] { $admins } admins were
    } alerted at { $time }.
books-raised-unsent = No admin was alerted (none configured).
status-wallet-inferred = The debit is inferred from the order: no answer of the aggregator with its figures reached us.
# --- end issue 25 (h-float) ---
# --- issue 29 (h-dashboard): the back office's login link ---
cmd-dashboard = The back office in a browser (admins, agents)
dashboard-link = Your back-office login link. It works once, for 10 minutes; do not forward it:
    { $url }
dashboard-denied = The back office is for admins and agents.
dashboard-unavailable = The back office cannot give a link right now. Please try again in a minute.
# --- end issue 29 (h-dashboard) ---
# --- issue 29 (h-people): a customer the merchant blocked ---
access-blocked = Your account is blocked by the shop, so you cannot order or add money here. Orders you placed before go on as usual. To ask why, contact the shop.
# --- end issue 29 (h-people) ---

# --- WhatsApp (issue 28) ---
# The label of the button that opens a WhatsApp list (at most 20 characters).
wa-list-opener = Choose
# --- issue 29 (h-dash29): /dashboard in /help ---
help-dashboard = /dashboard – a one-time link to the back office in a browser (orders, customers, the books), if this bot runs it.
# --- end issue 29 (h-dash29) ---
# --- WhatsApp (issue 28): a Telegram user and a WhatsApp account of one number ---

# --- issue 30 (h-r30): what identifies the account on every receipt and push ---
receipt-line-office = Office: { $office }
receipt-line-sc = SC number: { $sc }
receipt-line-holder = Account holder: { $name }
receipt-line-subscriber = Subscriber: { $name }
# --- end issue 30 (h-r30) ---
# --- issue 30 wording (h-w30) ---
start-choose = Choose what you want to pay, or send /help.
start-choose-whatsapp = Choose what you want to pay, or type "{ $help }".
topup-leave-question = Stop adding money to your balance? Nothing has been paid yet.
topup-flow-cancelled = Cancelled. Nothing was added and nothing was paid. Send /addmoney to add money.
cashin-leave-question = Leave this cash-in? Nothing has been moved yet.
cashin-cancelled = Cash-in cancelled. Nothing was moved: no balance changed. Send /cashin to start again.
notify-reason-not-sent = the order did not go through
# --- issue 30 (h-a30): agents and admins ---
reverse-notice-agent = ↩️ Your cash-in { $ref } of { $amount } to { $customer } was reversed by the merchant: { $reason }
    { $amount } is back in your agent balance: { $balance }
cashin-confirm-named = Add { $amount } to the balance of { $phone } ({ $name })?
    Your balance after: { $after }
    Receipt: { $ref }
agent-statement-title = Last movements (newest first, balance after each):
agent-statement-credit = { $time } · +{ $amount } credited by the merchant · balance { $balance }
agent-statement-cash-in = { $time } · −{ $amount } cash-in to { $customer } · balance { $balance }
agent-statement-reversal-in = { $time } · +{ $amount } back: cash-in { $ref } to { $customer } reversed ({ $reason }) · balance { $balance }
agent-statement-reversal-out = { $time } · −{ $amount } taken back: credit { $ref } reversed ({ $reason }) · balance { $balance }
agent-statement-in = { $time } · +{ $amount } · balance { $balance }
agent-statement-out = { $time } · −{ $amount } · balance { $balance }
help-admin-books = /books – the merchant's books: the aggregator wallet, what customers and agents hold, and whether they agree
help-admin-topups = /topups – online top-ups held for your decision
help-admin-status = /status 9841234567 – the recent orders of the customer registered with a phone number, with their reference numbers (/status and a reference number shows one order)
status-phone-title = Recent orders of the customer registered with { $phone } (newest first; /status and a reference shows one):
status-phone-line = { $time } · { $ref } · { $operator } · { $number } · { $amount } · { $status }
status-phone-unknown = Nobody is registered with { $phone }, and no order has that reference number.
status-phone-empty = The customer registered with { $phone } has no orders yet.

# /history: totals, references, months and search (issue 30)
history-total-npr = { $total } ({ $npr } from your balance)
history-total-npr-held = { $total } ({ $npr } held from your balance)
history-total-npr-returned = { $total } ({ $npr } held, then returned to your balance)
history-total-npr-merchant = { $total } ({ $npr })
history-total-returned = { $total } (returned to your balance)
# The same refund on a /history line ($total as above).
history-total-refunded = { $total } · refunded { $refund } on { $time } (complaint { $complaint })
history-total-refunded-part = { $total } · refunded { $refund } on { $time } (complaint { $complaint }) · paid { $paid } in the end
history-title-month = { $page ->
    [0] Your orders in { $month }:
   *[other] Your orders in { $month } (page { $page }):
  }
history-title-number = { $page ->
    [0] Your orders for { $number }:
   *[other] Your orders for { $number } (page { $page }):
  }
history-empty-month = You have no orders in { $month }.
history-empty-number = You have no orders for { $number }.
history-month-button = 📅 { $month }
history-all = 📋 All orders
history-search = 🔎 Search a number
history-search-ask = Which number or account should I look for? Type it, for example 9841234567.
history-search-invalid = That is not a number or account id. Type its digits (and letters), for example 9841234567.
history-invalid = After /history type a month (for example 2026-10) or a number (9841234567), or nothing for your last orders.
# --- issue 30 (h-reminders): reminders ---
cmd-reminders = Upcoming reminders, and turning them off
reminders-title = ⏰ A reminder
reminder-plan = { $category } · { $number } ({ $operator }): your plan of { $amount } ends on { $date }.
reminder-bill = { $category } · { $number } ({ $operator }): your monthly bill is usually paid on { $date }. Last time: { $amount }.
reminder-usual = { $category } · { $number } ({ $operator }): you usually recharge around { $date }. Last time: { $amount }.
reminders-pay-again = Tap to pay again: you see the order and confirm it before anything is paid. /reminders shows what is coming and turns reminders off.
reminder-button = 🔁 Pay again { $number } · { $amount }
reminders-stop-these = 🔕 Stop these reminders
reminders-stopped-these = 🔕 Done: no more reminders for these. /reminders shows the others.
reminders-list-title = ⏰ Your upcoming reminders (one message a day at most, between 09:00 and 20:00):
reminders-list-item = { $line }
    Reminder on { $when }.
reminders-list-empty = No reminders coming up. When a recharge or a bill payment succeeds, I remind you before the plan ends or when the next one is due.
reminders-list-off = 🔕 Reminders are off: I send none.
reminders-stop-one = 🔕 Stop { $number }
reminders-stop-all = 🔕 Turn all reminders off
reminders-turn-on = 🔔 Turn reminders back on
reminders-one-off-done = 🔕 Done: no more reminders for that one.
reminders-all-off-done = 🔕 All reminders are off.
reminders-on-done = 🔔 Reminders are on again.
reminders-list-none = No reminders coming up.
reminders-list-stopped = 🔕 Stopped: { $numbers }. These get no reminders, not even after the next payment, until you turn reminders back on.
reminders-pay-again-typed = Reply /history to pay again: you see the order and confirm it before anything is paid. /reminders shows what is coming and turns reminders off.
# --- issue 30 (h-deadends): no dead ends ---
idle-start-again = Send { $command } to start again.
credit-leave-question = Leave this credit? Nothing has been moved yet.
credit-cancelled = Credit cancelled. Nothing was moved: no balance changed. Send /credit to start again.
reverse-leave-question = Leave this reversal? Nothing has been moved yet.
reverse-cancelled = Reversal cancelled. Nothing was moved: no balance changed. Send /reverse to start again.
push-try-again = 🔁 Try again
push-change-number = ✏️ Change number
balance-empty = Your balance is { $balance }: there is nothing to pay with yet, so nothing was asked. Add money first, then choose what to pay.
balance-cash-in = An agent (a shop) can add money to your balance for cash, by your registered number.
balance-own-agent = Orders are paid from your own balance, not from your agent float (that is for cash-ins). Ask the merchant to add money to your own balance.
balance-short-by = Your balance is { $balance } and this order costs { $total }: { $shortfall } short.
shortfall-kept = Your answers are kept: once the money is added, this order comes back to confirm.
shortfall-topup-cap = Adding money online: only { $left } more can be added today, less than this shortfall. The daily limit resets at midnight: from { $time }.
shortfall-add = ➕ Add { $amount } and continue
shortfall-check-again = 🔄 Check my balance again
shortfall-pay = To add { $amount }, tap "Pay with Khalti" and pay in the browser. Once it is added, tap "▶ Continue my order" (here or under the message that says it was added): your order comes back to confirm, priced afresh, with your answers.
shortfall-continue = ▶ Continue my order
shortfall-gone = That order is no longer waiting: it was placed, cancelled or timed out (/history shows the orders you placed). Money you added and have not spent is in your balance (/balance). Send /recharge to order again.
# --- issue 30 (h-complaints): complaints on orders ---
cmd-complain = Report a problem with an order
cmd-complaints = Open complaints (admins)
complaint-flow-cancelled = No complaint was raised. Send /complain when you want to report a problem.
complaint-leave-question = Stop raising this complaint? Nothing has been sent yet.
complaint-flow-ended = Stopped: no complaint was raised or changed. This changes nothing about any order or payment; send /complain when you want to report a problem.
complaint-not-offered = Complaints are not taken in this chat yet. Please contact the shop.
complaint-no-orders = You have no orders yet, so there is nothing to complain about.
complaint-which-order = Which order is the problem with?
complaint-order-choice = { $ref } · { $number } · { $amount }
complaint-unknown-order = No order { $ref } of yours was found. Send /complain to choose among your orders.
complaint-ask-reason = What went wrong with order { $order }?
complaint-reason-not-received = Paid but not received
complaint-reason-wrong-number = Sent to a wrong number
complaint-reason-wrong-amount = Wrong amount
complaint-reason-duplicate = Charged twice
complaint-raised = 📝 Complaint { $ref } is registered for order { $order }: { $reason }.
    We will answer by { $due } (within { $days } working days). You will be told here at each step.
complaint-already-open = Order { $order } already has an open complaint: { $ref } ({ $status }). We will answer by { $due }.
complaint-status-logged = registered
complaint-status-taken = being looked into
complaint-status-resolved = resolved
complaint-status-rejected = rejected
complaint-taken = 🔎 Your complaint { $ref } about order { $order } is being looked into. We will answer by { $due }.
complaint-resolved = ✅ Your complaint { $ref } about order { $order } is resolved: { $text }
complaint-refunded = { $amount } was returned to your balance. Balance after the refund: { $balance }
complaint-refunded-balance-unknown = { $amount } was returned to your balance.
complaint-rejected = ❌ Your complaint { $ref } about order { $order } was not accepted: { $why }
complaint-report-button = ⚠️ Report a problem
complaint-denied = This command is for admins.
complaints-none = No complaint is open.
complaints-more = These are the { $shown } due soonest; { $more } more are open. The back office's Complaints page lists them (up to 100); here, answer these and send /complaints again for the next.
complaints-line = { $ref } · order { $order } · { $reason } ({ $code }) · customer { $user }
    { $status } · raised { $age } ago · due { $due }
complaints-overdue = ⏰ Overdue by { $late }
complaints-due-in = { $left } left
complaint-take-button = Take
complaint-resolve-button = Resolve
complaint-reject-button = Reject
complaint-taken-by-you = You took complaint { $ref }; the notice to the customer is on its way.
complaint-closed-already = Complaint { $ref } is already { $status }: { $text }
complaint-already-taken = Complaint { $ref } is already being looked into.
complaint-unknown = There is no complaint { $ref }.
complaint-admin-resolve-how = Complaint { $ref }, order { $order } ({ $reason }): how is it resolved?
complaint-admin-refund-button = Refund { $amount } and resolve
complaint-admin-no-refund-button = Resolve without a refund
complaint-admin-no-refund-why = No refund is possible: { $why }.
complaint-admin-reversed = ⚠️ The aggregator answered "{ $word }" for order { $order } on { $time }: it reversed the recharge after its success. Check that the customer was not already given the money back another way (/credit) before refunding.
complaint-refund-not-paid = the order was not paid from the customer's balance
complaint-refund-failed = the order failed and its money already went back to the balance
complaint-refund-not-final = the order is not final yet
complaint-refund-already = another complaint on this order was already refunded
complaint-refund-too-much = that is more than the customer paid
complaint-refund-books = the books refused the refund
complaint-admin-ask-done = What was done? The customer reads it (3 to 200 characters).
complaint-admin-ask-why = Why is it rejected? The customer reads it (3 to 200 characters).
complaint-admin-bad-text = Please write 3 to 200 characters.
complaint-admin-confirm-resolve = Resolve complaint { $ref } with: { $text }
complaint-admin-confirm-refund = Refund { $amount } to the customer's balance and resolve complaint { $ref } with: { $text }
complaint-admin-confirm-reject = Reject complaint { $ref } because: { $text }
complaint-admin-resolved = Complaint { $ref } is resolved; the notice to the customer is on its way.
complaint-admin-refunded = Complaint { $ref } is resolved with a refund of { $amount } (transfer { $transfer }); the notice to the customer is on its way.
complaint-admin-rejected = Complaint { $ref } is rejected; the notice to the customer is on its way.
complaint-admin-refused = Nothing was done: { $why }.
complaints-new-admin = 📝 New complaint { $ref } on order { $order }: { $reason } ({ $code }), customer { $user }. Due { $due }. /complaints
movement-refund = { $time } · +{ $amount } refunded on a complaint
help-complain = /complain – report a problem with an order (paid but not received, a wrong number or amount, charged twice); /complain and the order's reference number, or ⚠️ Report a problem under a receipt
help-admin-complaints = /complaints – open complaints with their due times: take, resolve (with a refund) or reject
receipt-share = 📄 Share receipt
receipt-doc-caption = Receipt for order { $ref }: keep it or forward it.
receipt-doc-footer = Keep the reference number: /status and the reference shows this order in the chat.
receipt-share-not-final = This order is not final yet: its receipt can be shared once the operator answers.
cmd-statement = Monthly statement (PDF)
statement-choose = Which month's statement? It comes as a PDF you can keep or forward.
statement-too-long = The statement of { $month } has too many lines to send as one document. Please ask the shop for it.
statement-doc-caption = Your statement for { $month }.
statement-doc-caption-agent = Your own balance's statement for { $month } (the balance that pays your own orders). Your agent balance and its movements: /balance, and My day in the back office (/dashboard).
statement-doc-title = Statement for { $month }
statement-doc-holder = Account: { $holder }
statement-doc-opening = Available to spend at the start: { $balance }
statement-doc-opening-held = Held at the start for orders then with the operator: { $held }
statement-doc-in-out = Money in: { $in } · Money out: { $out }
statement-doc-closing = Available to spend at the close: { $balance }
statement-doc-held = Held at the close for orders then with the operator: { $held }
statement-doc-footer = Times are Nepal time (NPT). Each line shows what was available to spend right after it. An order shows when you confirmed it (its money held from then); a failed one shows again when its money came back.
statement-col-date = Date
statement-col-what = What
statement-col-ref = Reference
statement-col-change = Change
statement-col-balance = Available
statement-kind-order = Order
statement-kind-order-failed = Order failed: money back
statement-kind-credit = Credit
statement-kind-demo-credit = Demo credit
statement-kind-cash-in = Cash-in
statement-kind-topup = Online top-up
statement-kind-adjustment = Correction
statement-kind-refund = Returned
statement-kind-reversal = Reversal
statement-kind-other = Other
# --- issue 30 (h-shortcuts): shortcuts ---
bot-description = Recharge mobiles and pay bills in Nepal and India: NTC top-ups, data packs, TV, internet, landline, water and electricity. Send /start, or just send a phone number or customer id and I will start with it.
bot-short-description = Mobile recharge and bill payments for Nepal and India. Send a number to start.
cmd-myqr = My shop's QR code (agents)
shortcut-which = What is { $number }? Choose what to pay:
shortcut-shop-register = You scanned a shop's QR code. Register with your phone number (the button below) and you become the shop's customer: it can add money to your balance for cash.
shortcut-shop-joined = ✅ You are now a customer of this shop. Send /recharge, or just send a phone number to recharge it.
shortcut-shop-again = You are already registered. Send /recharge, or just send a phone number to recharge it.
shortcut-shop-agent-told = 🆕 New customer through your shop's QR code: { $name }, { $phone }. You can add money to their balance with /cashin.
shortcut-qr-caption = Your shop's QR code. Print it and put it where customers pay: scanning it opens this bot, and whoever registers becomes your customer (you get a message).
    Link: { $link }
    On WhatsApp, customers send: { $code }
shortcut-qr-whatsapp = WhatsApp cannot carry the QR image here: send /myqr on Telegram for it, or print the link as a QR code.
shortcut-qr-agents-only = Only agents have a shop QR code.
# /help: the statement, reminders and the shop QR code (issue 30)
help-statement = /statement – a month's statement as a PDF (opening and closing balance, every movement)
help-reminders = /reminders – what I will remind you of (plans ending, monthly bills), and turning reminders off
help-agent-shop = /myqr – your shop's QR code: a customer who scans it registers with your shop
reminders-not-offered = This shop does not send reminders.
# --- h-chatrefund: a partial refund decided in the chat (/topups) ---
topup-partial-none-waiting = No top-up is held or waits for a partial refund's amount.
topup-partial-said-part = { $gateway } says: Partially Refunded, without the amount.
topup-partial-said-maybe-whole = { $gateway } says: Completed and refunded, without the amount (in whole or in part).
topup-partial-line-credited = Partial refund to enter: top-up { $pid } ({ $gateway }), customer { $who }. Paid { $paid }; credited { $credited }. { $said }
topup-partial-line-uncredited = Partial refund to enter: top-up { $pid } ({ $gateway }), customer { $who }. Paid { $paid }; nothing credited yet. { $said }
topup-partial-enter-button = Enter the amount returned
topup-partial-reject-button = Reject (nothing credited)
topup-partial-ask-amount = How much did { $gateway } return of top-up { $pid }? Its merchant dashboard shows it. Type an amount from { $min } to { $max }.
topup-partial-confirm-take = { $gateway } returned { $returned } of top-up { $pid }: { $returned } will be taken back from { $who }'s balance (available now { $available }; what it lacks is not taken). The customer will be told.
topup-partial-confirm-rest = { $gateway } returned { $returned } of the { $paid } paid for top-up { $pid }: { $rest } (the rest) will be credited to { $who }'s balance, within the caps. The customer will be told.
topup-partial-confirm-all = { $gateway } returned all { $paid } of top-up { $pid }: nothing will be credited to { $who }. The customer will be told.
topup-partial-confirm-reject = Reject top-up { $pid }: nothing will be credited to { $who }; refund what Khalti kept of the { $paid } in its merchant dashboard. The customer will be told.
topup-partial-took = { $pid }: took back { $reversed } of the { $returned } { $gateway } returned from { $who }'s balance. The customer was told.
topup-partial-short = { $pid }: took back { $reversed } of the { $returned } { $gateway } returned; the balance was short by { $short }: recover it by hand. The customer was told.
topup-partial-credited = { $pid }: credited { $credited } to { $who }, the rest after the { $returned } { $gateway } returned. The customer was told.
topup-partial-none = { $pid }: all of it was returned, nothing credited. The customer was told.
topup-partial-rejected = { $pid }: rejected, nothing credited. Refund what Khalti kept in its merchant dashboard. The customer was told.
topup-partial-refused-unknown = No such top-up: { $pid }.
topup-partial-refused-not-partial = { $pid } was already decided (by another admin, or an earlier tap): nothing was done.
topup-partial-refused-amount = { $pid }: that amount is not allowed: nothing was done.
topup-partial-refused-ledger-refused = { $pid }: the books refused it (see the alert): nothing was written.
topup-partial-refused-above-cap = { $pid }: the rest is above TOPUP_MAX_AMOUNT or what TOPUP_DAILY_CAP leaves today: nothing was credited.
topup-partial-refused-credited = { $pid } was credited: only the amount returned ends it, not a rejection.
topup-partial-refused-gateway-disagrees = { $pid }: Khalti no longer reports this payment refunded in part for that amount: nothing was credited.
topup-partial-refused-gateway-unavailable = { $pid }: Khalti did not answer: nothing was credited. Try again later with /topups.
topup-partial-cancelled = Nothing was decided. Send /topups to decide it later.
topup-partial-leave-question = Stop deciding this partial refund? Nothing has been decided yet.
topup-partial-flow-ended = Stopped: nothing was decided, refunded or credited; the top-up waits as it was. Send /topups to decide it later.
# --- end h-chatrefund ---
# --- h-settle: an admin settles an order the aggregator never ended ---
cmd-settle = Settle an order stuck without a final answer (admins)
settle-denied = /settle is for admins.
settle-ask-ref = Which order should be settled? Type its reference number.
settle-ask-outcome = The aggregator has given no final answer for this order. How should it be settled? The aggregator is asked once more before anything is written.
settle-as-failed = ❌ As failed: return the money to the customer
settle-as-success = ✅ As succeeded: the recharge arrived
settle-ask-reason = Why? A few words (for example what the operator or the aggregator's support said); they are kept on the order.
settle-confirm-failed = Settle order { $ref } as failed? The customer is not charged for it (a prepaid customer's held money goes back to their balance) and is told. Reason: { $reason }
settle-confirm-success = Settle order { $ref } as succeeded? The customer is charged for it (a prepaid customer's held money is taken); the aggregator's debit is its execute answer's, or inferred from the order. Reason: { $reason }
settle-done-failed = ✅ Order { $ref } settled as failed: the customer is not charged for it (held money is back in their balance) and was told. The aggregator said: { $said }.
settle-done-success = ✅ Order { $ref } settled as succeeded: the customer is charged for it and was told. The aggregator said: { $said }.
settle-aggregator-final = The aggregator has just answered for order { $ref }: { $status }. Its answer was applied; nothing was settled by hand.
settle-final = Order { $ref } is already final ({ $status }): nothing to settle.
settle-not-sent = Order { $ref } was never sent to the aggregator: the bot fails it by itself.
settle-too-young = Order { $ref } is too recent to settle by hand: the aggregator may still answer. It can be settled from { $time }.
settle-cancelled = Settlement cancelled. Nothing was changed. Send /settle to start again.
settle-leave-question = Leave this settlement? Nothing has been changed yet.
settle-flow-ended = Stopped: no order was settled and nothing was changed. Send /settle to start again.
status-settled = Settled by admin { $admin } at { $time }: { $reason } (the aggregator said: { $said })
status-settled-contradicted = ⚠️ The aggregator later said the opposite: no money moved; check it with the aggregator; /books shows the difference.
status-settled-confirmed = ✅ At { $time } the aggregator's own final answer said the same: the settlement stands.
status-settled-confirmed-earlier = ✅ At { $time } the aggregator's own final answer had said the same.
status-contradicted = ⚠️ At { $time } the aggregator said { $said }; the order stays { $status }. No money moved: check it with the aggregator; a correction needs an admin.
status-settle-hint = No final answer from the aggregator for too long: /settle { $ref }
notify-reason-settled = the aggregator never confirmed the recharge, so the order was closed as failed
help-admin-settle = /settle – settle an order the aggregator has not ended for hours (failed: the money back to the customer; or succeeded), with a reason; with more than one admin, another admin approves it.
settle-confirm-approval = Another admin must approve it: nothing moves until then.
settle-proposed = 🕓 Proposed: order { $ref } as { $outcome }. Nothing moves until another admin approves it; they were told. The aggregator said: { $said }.
settle-proposal = Admin { $admin } proposes to settle order { $ref } as { $outcome }: { $reason }. Approve it? The aggregator is asked once more before anything is written.
settle-approve = ✅ Approve
settle-decline = ✖ Decline
settle-own-proposal = Your proposal to settle order { $ref } as { $outcome } ({ $reason }) waits for another admin's approval.
settle-withdraw = Withdraw my proposal
settle-withdrawn = The proposal to settle order { $ref } was withdrawn. Nothing moved.
settle-other-proposal = Another proposal waits on order { $ref }: send /settle { $ref } to see it.
status-settled-approved = Approved by admin { $admin }
status-settle-proposed = Admin { $admin } proposes to settle it as { $outcome }; another admin approves or declines: /settle { $ref }
settle-no-proposal = The proposal to settle order { $ref } was withdrawn or declined meanwhile: nothing was settled.

# --- s21 (h-link): one account on two channels, joined only with a code sent to the other chat ---
register-linked = This chat uses your WhatsApp account ({ $phone }): its number stays as it is. To use another number here, send /unlink first, then share your contact again.
register-linked-released = This chat uses your WhatsApp account, whose number is no longer its own (support released it: the number has a new holder). The account keeps its money and history, which you use here, but it has no number now and none can be added to it here. Its messages (an order's result, notices) no longer reach WhatsApp or this chat: see /history for how an order ended.
link-code-sent = { $phone } has an account on { $channel }. To use that same account here, we sent a 6-digit code to that { $channel } chat. Type it here as: { $command } 123456 (it works for 10 minutes). Nothing is joined without it.
link-code =
    Your code to use this account from { $channel } too: { $code }
    Type it there as: { $command } { $code }
    It works for 10 minutes. If you did not ask for it, do not give it to anyone: nothing changes without it.
    Asked on { $channel } by: { $asker }. If that is not you, ignore this message.
link-done = ✅ Joined: this chat now uses the account of { $phone } (its balance, history and saved numbers). To stop, send { $command }.
link-wrong = That code is not right. Tries left: { $left }.
link-too-many-tries = Too many wrong codes: that code no longer works, and nothing was joined.
link-no-offer = No code is waiting to be typed in this chat: it may have expired or been used, or it was meant for the other chat (a code is typed in the chat that asked for it, not in the one it came to). Nothing was joined.
link-number-moved = That code was right, but { $phone } is no longer the number of the account it was sent for, so nothing was joined.
link-number-released = That code was right, but { $phone } was released from the WhatsApp account it was sent for: our support found that the number has a new holder, so a code sent to it no longer shows that the account is yours. Nothing was joined. The account keeps its money and history; if it is yours, ask our support, or at the shop where you recharge.
link-already = This chat already uses the account of { $phone }. To stop, send { $command }.
link-already-other = This chat already uses another account. To stop, send { $command }.
link-ask-again-telegram = For a new code, share your contact again.
link-ask-again-whatsapp = For a new code, type { $link }.
link-too-many-codes = Too many codes were sent for this chat in the last hour. Please try again later; nothing was joined.
link-refused-staff = An agent's or an admin's chat is not joined to another account: each chat keeps its own role and float. Nothing was changed.
link-refused-own = This chat has an account of its own (a number, or money), so it cannot be joined to the account of { $phone }. Nothing was changed.
link-held =
    { $phone } is registered with us on Telegram.
    Is that Telegram account yours? Type { $link }: we send a code to that Telegram chat, and you type it here to use the same account.
    Not yours (this number had another owner before)? Type { $new }: this number gets a new, empty account here, and the Telegram account keeps its own balance.
link-new-done = ✅ { $phone } now has its own account here. Type { $hi } for the menu.
link-how = To use one account from Telegram and WhatsApp: share your contact on Telegram (the number you use on WhatsApp), or type { $link } in a WhatsApp chat whose number is registered on Telegram. A code is sent to the other chat.
unlink-done = This chat no longer uses the other account: it is on its own again (the other account keeps its balance and history).
unlink-none = This chat is not joined to another account.
link-code-unlink = Once joined, you can end it from here any time: send "{ $unlink }".
unlink-owner-list = These Telegram chats use your account (its balance, history and saved numbers):
    { $list }
    Choose one to end its join: it goes back to its own account, and your balance stays here.
unlink-owner-end = End { $n }: { $name }
unlink-owner-keep = Keep them
unlink-owner-chat = a Telegram chat
unlink-owner-kept = Nothing changed: those chats still use your account.
unlink-owner-done = Ended: { $name } no longer uses your account. Your balance and history stay here.
unlink-owner-gone = That chat no longer uses your account: nothing to end. Send "{ $unlink }" to see the list again.
unlink-by-owner = The WhatsApp account of { $phone } ended this chat's join: this chat uses its own account again (that account keeps its balance and history, and anything started with it here has ended). To join again, send { $link }.
link-not-sent = The code could not be sent to that { $channel } chat (it may have blocked this bot). Nothing was joined; please try again later.
link-write-first = The account of { $phone } is on WhatsApp, and we send its code only to a WhatsApp chat that wrote to us in the last 24 hours. No code was sent and nothing was joined. From the phone with { $phone }, write "{ $hi }" to our WhatsApp number first, then ask here again.
link-refused-target = The account of { $phone } cannot be joined to this chat. Nothing was changed.
link-new-confirm = This gives { $phone } a new, empty account here, and takes the number away from the Telegram account that registered it (that account keeps its balance, and is told). To do it, type { $confirm }. If that Telegram account is yours, type { $link } instead.
link-new-no-id = No account was opened: this message did not say which WhatsApp user sent it, and a new account here belongs to that user. Nothing was changed: { $phone } stays with the Telegram account that registered it. Type { $confirm } from an up-to-date WhatsApp, or type { $link } if that Telegram account is yours.
link-new-moved = Nothing was changed and no account was opened: another account registered { $phone } meanwhile, and it keeps it. Type { $hi } to see what you can do now.
link-new-blocked = No account was opened: the account that registered { $phone } is blocked by the shop, so the number cannot get a new account here. Nothing was changed. Please visit the shop with this phone to sort it out.
link-number-taken = { $phone } was registered on WhatsApp by whoever holds that number now, so it is no longer this account's number: money added to { $phone } goes to that WhatsApp account from now on. Your balance and history stay here and you can go on using them. To add the number you use now, send { $register }.
# --- end s21 (h-link) ---
# --- h-cashin: a booking whose outcome is not known ---
cash-unsure = ⚠️ Not known whether receipt { $ref } was booked: the books did not answer in full. It may be booked already. Do not send { $command } again for the same money: tap Check: it looks for the same receipt in the books and books it now if it was not booked (never twice).
cash-unsure-check = 🔁 Check
cash-unsure-cancelled = Stopped. The receipt above may have been booked already: look it up before doing it again (/balance shows an agent's cash-ins of the day; the back office lists every cash-in and credit).
cash-unsure-cancelled-admin = Stopped. The receipt above may have been booked already: look it up in the back office (Cash-ins lists every cash-in, credit and reversal) before doing it again.
cash-unsure-leave-question = Leave? The receipt above may have been booked already: look it up before doing it again.
cash-not-booked = ❌ Not booked: the books refused receipt { $ref } before taking it, so nothing was moved. Checking again cannot book it; please tell an admin.
cash-unsure-final = ⚠️ Still not known whether receipt { $ref } was booked: the books did not answer in { $tries } tries, so this stops here. Do not send { $command } again for the same money yet: once the books answer, an admin looks up { $ref } in the back office. If it was booked, the money is there and nothing more is needed; if it was not, send { $command } again then.
cashin-repeat = ⚠️ This number already got a cash-in of { $amount } from you today: { $time }, receipt { $ref }. Confirm only if the customer paid that cash again.
# --- end h-cashin ---

# --- s21 review (h-settle2): the aggregator's answer stops a settlement; one's own proposal ---
settle-aggregator-disagrees = The aggregator has just answered final for order { $ref } (it said: { $said }), but its answer does not match the order (another transaction id). Nothing was settled: resolve it with the aggregator first.
settle-aggregator-unsure = The aggregator does not confirm a recharge for order { $ref }: { $cause } (it said: { $said }). Not settled as succeeded: settle it as failed, or resolve it with the aggregator first.
settle-unsure-not-found = it has no such order (not found)
settle-unsure-other-order = it answered about another order
settle-unsure-refused = it refused the status query in its own error answer, which may hide a "not found"
settle-unsure-unreadable = its answer could not be read, which may hide a "not found"
settle-unsure-unknown-word = it answered a status word the bot does not know
settle-own-proposal-waits = Your own proposal to settle order { $ref } waits for another admin's approval: nothing was settled. Send /settle { $ref } to see or withdraw it.
settle-disabled = Settling by hand is off on this bot (SETTLE_ENABLED): nothing was changed. The operator turns it on once every instance runs this version.
settle-done-told = The other admins were told.

# --- h-settle3: the aggregator's answer could not be written during a settlement ---
settle-answer-unwritten = The aggregator answered for order { $ref } (it said: { $said }), but its answer could not be saved, so nothing was settled and no money moved on your word. Try /settle { $ref } again in a moment: it shows the order as it then stands.
# --- h-waid2: a WhatsApp number that writes as another WhatsApp user (held until an admin decides) ---
wa-held = ⏸️ The account of this WhatsApp number ({ $phone }) is under review by our support: this number now writes as a different WhatsApp user than the one the account belongs to. Until support decides, nothing of that account (balance, history, saved numbers) is shown here, and nothing can be spent or ordered. Support has been told and will write to you in this chat; you can also ask at the shop where you recharge.
wa-held-released = ℹ️ This WhatsApp number ({ $phone }) is no longer tied to the account it had with us, and that account is not yours. This message did not say which WhatsApp user sent it, so no account of your own could be opened: write again from an up-to-date WhatsApp, or register on Telegram with this number (share your contact there).
wa-held-admin = WhatsApp number { $phone } writes as another WhatsApp user ({ $user }, id { $id }) than the one its account { $account } belongs to (a recycled number, or the owner's id re-issued). That sender is held: nothing of the account was shown or spent, nothing was moved. Decide in the chat: /waid { $phone } { $accept } { $id } (this sender is the same person: only the sender with id { $id } is accepted) or /waid { $phone } { $release } (the number leaves the account, which keeps its money; whoever is held).
waid-usage = Send /waid <number> { $accept } <id> (the held WhatsApp user with the id named in the alert is the account's owner) or /waid <number> { $release } (the number leaves the account, which keeps its money).
waid-none = No WhatsApp account with { $phone } is waiting for a decision: nothing was changed.
waid-other = { $phone }: the WhatsApp user held now has id { $pending }, not { $id } (another sender wrote after the alert you answer). Nothing was changed. Read the newest alert, then send /waid again.
waid-accepted = ✅ { $phone }: the held WhatsApp user now owns account { $account } (its balance and history). Recorded with your id and the time.
waid-released = ✅ { $phone } was released from account { $account }, which keeps its money and history; nothing of it goes to that WhatsApp number any more (its owner reaches it only from a Telegram chat joined to it earlier, or through support). The number's holder gets a new, empty account when they next write on WhatsApp. Recorded with your id and the time.
waid-released-open = Orders of that account still under way: { $count }. Their results will not reach that number (they show in the account's history):
waid-released-order = • { $ref }: { $amount }, { $status }
waid-released-more = … and { $more } more.
waid-released-none = No order of that account was under way.
waid-released-looked = (Only its newest { $count } orders were looked at.)
waid-released-unread = (The orders of that account still under way could not be read just now; its history shows them.)
cmd-waid = Decide on a held WhatsApp account (admins)
cashin-held = { $phone }'s account is under review by support (its WhatsApp number writes as another WhatsApp user): no cash-in to it until an admin decides. Take no cash for it now.
cashin-blocked = { $phone }'s account is blocked by the shop: no cash-in to it (the customer could not use the money). Take no cash for it.
cashin-moved = { $phone } is no longer the number of the account you were crediting (it left that account meanwhile). Nothing was booked: take no cash for it now; send /cashin again to credit whoever holds the number today.
# --- h-staffmenu: staff mode offers no /cashin or /myqr; /credit's float waits for prepaid ---
help-admin-accounts-staff = /credit – credit an agent who paid in, ahead of a switch to prepaid mode: cash-ins are off while orders are paid from the merchant's wallet, so no customer gets a balance from it now; /reverse – reverse a cash-in or a credit, with a reason.
credit-staff-mode = Cash-ins are off while orders are paid from the merchant's wallet: this agent balance waits for a switch to prepaid mode, and until then no customer can get or spend any of it.
shortcut-qr-staff-mode = Shop QR codes are off: this shop's orders are paid from the merchant's wallet and only its staff may order, so a customer who scans one could not order here.
register-prompt-staff = To register your own phone number, tap "📱 Share my phone number" below.

# --- h-wamove: a customer's balance moved to their other account (a changed WhatsApp number) ---
statement-kind-move = Moved between your accounts
movement-move-in = { $time } · +{ $amount } moved here from your other account
movement-move-out = { $time } · −{ $amount } moved to your other account
move-notice-from = ↪️ The merchant moved your whole balance, { $amount }, to your other account. Your balance here: { $balance }
move-notice-to = ↩️ The merchant moved { $amount } from your account on { $from } to this account. Your balance: { $balance }
wa-number-changed = You changed your WhatsApp number from { $old } to this one. Your balance stays in the account of { $old } for now: our support will move it to your account on this number and tell you here when it is done. Nothing is lost.
wa-number-changed-admin = WhatsApp number change: { $old } (account { $account }) is now { $new }. Meta signed the notice. Move the balance in the back office, "Number changes": { $link }
