# The mobile category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
mobile-ask-number = 📱 कुन मोबाइल नम्बर रिचार्ज गर्ने? (10 अङ्क, NTC)
mobile-ncell = यो एनसेल नम्बर हो। एनसेलका लागि डाटा प्याक किन्नुहोस्: /recharge पठाएर "डाटा प्याक" छान्नुहोस्।
mobile-detected = ✓ { $operator } (पहिचान भयो)
mobile-ask-operator = { $number } को अपरेटर:
mobile-ask-amount = कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:
mobile-operator-mismatch = { $number } { $operator } को नम्बर होइन: ती { $prefixes } बाट सुरु हुन्छन्। यो { $detected } जस्तो देखिन्छ (✓ लगाइएको)। कुन अपरेटर हो?
mobile-ask-amount-for = 📱 { $number } · { $operator }
    { mobile-ask-amount }
mobile-line-not-offered = { $number } { $operator } को नम्बर हो, र { $operator } अहिले रिचार्ज गर्न मिल्दैन। अर्को नम्बर पठाउनुहोस्, वा पछि फेरि प्रयास गर्नुहोस्।
