# The datapack category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
datapack-ask-number = 📶 कुन मोबाइल नम्बरका लागि प्याक? (10 अङ्क, एनसेल वा NTC)
datapack-family-ncell = एनसेल
datapack-family-ntc = NTC
datapack-ask-product = { $number } { $family } नम्बर हो। कस्तो प्याक चाहियो?
datapack-product-data = 📶 डाटा
datapack-product-voice = 📞 भ्वाइस (कल)
datapack-product-sms = ✉️ एसएमएस
datapack-product-roaming = ✈️ रोमिङ
datapack-product-special = ⭐ सधैं अन
datapack-product-recommended = 👍 सिफारिस गरिएका
datapack-ask-package = { $number } का लागि { $operator } प्याकहरू ({ $count })। एउटा छान्नुहोस्:
datapack-package = { $name } · { $amount }
datapack-no-packages = { $operator } मा अहिले यो नम्बरका लागि कुनै प्याक छैन। कृपया अर्को प्रकारको प्याक छान्नुहोस्।
datapack-list-rejected = प्याकहरू ल्याउन सकिएन: { $message }
    कृपया अर्को प्रकारको प्याक छान्नुहोस् वा फेरि प्रयास गर्नुहोस्।
catalog-none-for-number = माफ गर्नुहोस्, अहिले { $number } का लागि केही पनि उपलब्ध छैन। कुनै रकम काटिएको छैन। केही बेरपछि /recharge पठाएर फेरि प्रयास गर्नुहोस्।
