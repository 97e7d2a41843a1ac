# The datapack category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
datapack-ask-number = 📶 पैक किस मोबाइल नंबर के लिए है? (10 अंक, Ncell या NTC)
datapack-family-ncell = Ncell
datapack-family-ntc = NTC
datapack-ask-product = { $number } एक { $family } नंबर है। कौन सा पैक चाहिए?
datapack-product-data = 📶 डेटा
datapack-product-voice = 📞 वॉइस (कॉल)
datapack-product-sms = ✉️ एसएमएस
datapack-product-roaming = ✈️ रोमिंग
datapack-product-special = ⭐ सधैं ऑन
datapack-product-recommended = 👍 सुझाए गए
datapack-ask-package = { $number } के लिए { $operator } पैक ({ $count })। एक चुनिए:
datapack-package = { $name } · { $amount }
datapack-no-packages = { $operator } के पास अभी इस नंबर के लिए कोई पैक नहीं है। कृपया दूसरी तरह का पैक चुनिए।
datapack-list-rejected = पैक लोड नहीं हो सके: { $message }
    कृपया दूसरी तरह का पैक चुनिए या फिर से कोशिश कीजिए।
catalog-none-for-number = माफ़ कीजिए, अभी { $number } के लिए कुछ भी उपलब्ध नहीं है। कोई पैसा नहीं कटा। थोड़ी देर बाद /recharge भेजकर फिर कोशिश कीजिए।
