# The water category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
water-ask-operator = 🚰 Which water operator?
water-ask-office = 🚰 { $operator }: which office is your water connection with?
water-ask-customer = Your customer id at { $office } (as printed on the water bill):
water-ask-month = For which month?
water-another-month = 📅 Another month
water-bill-rejected = The water office could not check that bill: { $reason }
    Please check the customer id.
water-bill-title = 🚰 Water bill of { $name } ({ $month })
water-confirm-month = Month: { $month }
flow-edit-month = ✏️ Month
