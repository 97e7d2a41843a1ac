# The water category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
water-ask-operator = 🚰 कुन खानेपानी सेवा प्रदायक?
water-ask-office = 🚰 { $operator }: तपाईंको धारा कुन कार्यालय अन्तर्गत छ?
water-ask-customer = { $office } मा तपाईंको ग्राहक नम्बर (पानीको बिलमा लेखिएको):
water-ask-month = कुन महिनाको?
water-another-month = 📅 अर्को महिना
water-bill-rejected = खानेपानी कार्यालयले यो बिल जाँच्न सकेन: { $reason }
    कृपया ग्राहक नम्बर जाँच्नुहोस्।
water-bill-title = 🚰 { $name } को पानीको बिल ({ $month })
water-confirm-month = महिना: { $month }
flow-edit-month = ✏️ महिना
