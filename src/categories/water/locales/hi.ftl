# The water category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
water-ask-operator = 🚰 कौन सा जल सेवा प्रदाता?
water-ask-office = 🚰 { $operator }: आपका पानी कनेक्शन किस कार्यालय के अंतर्गत है?
water-ask-customer = { $office } में आपकी ग्राहक संख्या (पानी के बिल पर छपी):
water-ask-month = किस महीने का?
water-another-month = 📅 दूसरा महीना
water-bill-rejected = जल कार्यालय यह बिल नहीं जाँच सका: { $reason }
    कृपया ग्राहक संख्या जाँचिए।
water-bill-title = 🚰 { $name } का पानी का बिल ({ $month })
water-confirm-month = महीना: { $month }
flow-edit-month = ✏️ महीना
