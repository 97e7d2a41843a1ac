# The electricity category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
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
