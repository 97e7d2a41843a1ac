# The datapack category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
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
catalog-none-for-number = Sorry, nothing is on offer for { $number } right now. Nothing was charged. Please try again later with /recharge.
