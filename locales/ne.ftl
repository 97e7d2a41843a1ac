# मुख्य पाठहरू। प्रत्येक प्रक्रियाका पाठहरू तल तिनको उपसर्गसहित छन्।

start-welcome = नमस्ते { $name }! म नेपाल र भारतमा मोबाइल, डाटा प्याक, टिभी, इन्टरनेट, ल्यान्डलाइन, खानेपानी र बिजुलीको बिल तिर्न सहयोग गर्छु।
help-text = म यी काम गर्न सक्छु:
    /recharge – रिचार्ज वा बिल भुक्तानी
    /status – सन्दर्भ नम्बरले अर्डर जाँच्नुहोस्
    /history – तपाईंका पछिल्ला अर्डरहरू, रेफरेन्स, जम्मा र "फेरि" सहित; /history 2026-10 ले एक महिनाका र /history 9841234567 ले एक नम्बरका अर्डर देखाउँछ
    /saved – सुरक्षित नम्बर र खाताहरू
    /language – भाषा बदल्नुहोस्
    /cancel – चलिरहेको काम रोक्नुहोस्
    अर्डर सफल वा असफल हुँदा तपाईंलाई सन्देश आउँछ।
help-agent = एजेन्टको रूपमा तपाईं /status ले जुनसुकै अर्डर हेर्न सक्नुहुन्छ।
help-admin = एडमिनको रूपमा तपाईं /balance ले वालेट हेर्न सक्नुहुन्छ।
cmd-start = सुरु
cmd-recharge = रिचार्ज वा बिल भुक्तानी
cmd-status = अर्डर जाँच
cmd-history = मेरा पछिल्ला अर्डर
cmd-language = भाषा बदल्नुहोस्
cmd-help = सहायता
cmd-cancel = रद्द
cmd-balance = मेरो मौज्दात

menu-prompt = के तिर्न चाहनुहुन्छ?
menu-mobile = 📱 मोबाइल टप-अप
menu-datapack = 📶 डाटा प्याक
menu-dth = 📺 टिभी (DTH)
menu-internet = 🌐 इन्टरनेट
menu-landline = ☎️ ल्यान्डलाइन
menu-water = 🚰 खानेपानी बिल
menu-electricity = 💡 बिजुली बिल
menu-india = 🇮🇳 भारत रिचार्ज

language-name = नेपाली
language-prompt = आफ्नो भाषा छान्नुहोस्:
language-set = भाषा नेपाली राखियो।

common-cancel = ✖ रद्द
common-confirm = ✅ पुष्टि
common-back = ‹ पछाडि
common-prev = ‹
common-next = ›
common-page = { $page }/{ $pages }
common-cancelled = रद्द गरियो। कुनै रकम काटिएन। फेरि सुरु गर्न /recharge पठाउनुहोस्।
common-cancelled-whatsapp = रद्द गरियो। कुनै रकम काटिएन। फेरि सुरु गर्न "{ $recharge }" टाइप गर्नुहोस्।
common-nothing-to-cancel = रद्द गर्नुपर्ने केही छैन।
common-idle-ended = { $minutes } मिनेटसम्म जवाफ नआएकाले अघिल्लो अनुरोध बन्द भयो। कुनै रकम काटिएन।
common-send-text = कृपया पाठ सन्देशमा जवाफ दिनुहोस् वा बटन प्रयोग गर्नुहोस्।
common-slow-down = तपाईं धेरै छिटो सन्देश पठाउँदै हुनुहुन्छ। केही सेकेन्ड पर्खनुहोस्; यस बीचका सन्देशहरू बेवास्ता गरिन्छन्।
common-use-buttons = कृपया कुनै एउटा बटन छान्नुहोस्।
common-button-expired = यो बटन अब सक्रिय छैन।
common-try-again = कृपया फेरि प्रयास गर्नुहोस्:
common-search-hint = खोज्न नामको केही भाग टाइप गर्न पनि सक्नुहुन्छ।
common-search-none = "{ $query }" सँग केही मिलेन। नामको अर्को भाग प्रयास गर्नुहोस्।
common-search-results = "{ $query }" सँग मिल्ने:
flow-leave-question = यो अर्डर छोड्ने? अहिलेसम्म भरेको विवरण हराउनेछ।
flow-keep = ↩ जारी राख्ने
flow-leave = 🚪 छोड्ने
flow-left = छोडियो। कुनै रकम काटिएन।
flow-left-over = यो थिचाइअघि नै त्यो सकिइसकेको थियो, त्यसैले यसले केही छोडेन वा रद्द गरेन: त्यहाँ पुष्टि गरिएको अर्डर जारी रहन्छ (तपाईंका अर्डर /history मा देखिन्छन्)।
flow-other-account = यो च्याटमा खुला अनुरोध अर्को खाताले सुरु गरेको थियो, त्यसैले यहाँ अन्त्य भयो। सुरु गर्न /start पठाउनुहोस्।
flow-other-account-linked = यो च्याटले अब अर्को खाता चलाउँछ (/link ले बनेको जोडाइ बनाइयो वा अन्त्य गरियो, तपाईंले वा खाताधनीले), त्यसैले पहिले चलाएको खाताबाट सुरु गरेको अनुरोध यहाँ अन्त्य भयो: त्यसको अरू केही गरिएन। सुरु गर्न /start पठाउनुहोस्।
common-private-only = तपाईंको सुरक्षाका लागि अर्डर मसँगको निजी च्याटमा मात्र लिइन्छ।
common-unknown-input = मैले बुझिनँ। केही तिर्न /recharge वा सहायताका लागि /help पठाउनुहोस्।
common-unknown-input-whatsapp = मैले बुझिनँ। केही तिर्न "{ $recharge }" वा सहायताका लागि "{ $help }" टाइप गर्नुहोस्।
common-media-whatsapp = म पाठ सन्देश र बटन मात्र पढ्न सक्छु; फोटो, फाइल, भ्वाइस सन्देश वा स्टिकर पढ्न सक्दिनँ। कृपया चाहेको कुरा टाइप गर्नुहोस्: केही तिर्न "{ $recharge }", वा सहायताका लागि "{ $help }"।
common-lookup-failed = रिचार्ज सेवाले अहिले जवाफ दिइरहेको छैन। तपाईंका जवाफहरू सुरक्षित छन्; "फेरि प्रयास" थिच्नुहोस् वा एक मिनेटपछि प्रयास गर्नुहोस्।
common-retry = 🔄 फेरि प्रयास
common-error = हाम्रो तर्फबाट केही गडबड भयो। फेरि प्रयास गर्नुअघि कृपया /history मा तपाईंको अर्डर भयो कि भएन हेर्नुहोस्।

err-empty = कृपया मान टाइप गर्नुहोस्।
err-not-digits = कृपया अङ्क मात्र प्रयोग गर्नुहोस्।
err-length = यसमा { $actual } अङ्क छन्; ठ्याक्कै { $expected } चाहिन्छ।
err-leading-zero = नम्बर 0 बाट सुरु हुनु हुँदैन।
err-trunk-zero = कृपया सुरुको 0 हटाउनुहोस्: नम्बर त्यसपछिका { $expected } अङ्क हो, र तपाईंले 0 पछि { $actual } अङ्क लेख्नुभयो।
err-india-prefix = भारतको मोबाइल नम्बर 6, 7, 8 वा 9 बाट सुरु हुन्छ।
err-phone-mobile-length = यो फोन नम्बर होइन: यो मोबाइलजस्तै 9 बाट सुरु हुन्छ तर यसमा { $actual } अङ्क छन्, मोबाइल नम्बरमा 10 अङ्क हुन्छन्। (ल्यान्डलाइनमा 7 देखि 9 अङ्क हुन्छन् र 9 बाट सुरु हुँदैन।)
err-phone-landline-length = यो फोन नम्बर होइन: यसमा (सुरुको 0 बाहेक) { $actual } अङ्क छन्, ल्यान्डलाइनमा 7 देखि 9 अङ्क हुन्छन्। (मोबाइलमा 9 बाट सुरु हुने 10 अङ्क हुन्छन्।)
err-prefix = यो नम्बर यो अपरेटरको होइन। यो { $allowed } बाट सुरु हुनुपर्छ।
err-retired-operator = यो नम्बर स्मार्टसेलको हो, जुन अब सञ्चालनमा छैन।
err-india-number = यो भारतको नम्बर हो। भारतका नम्बर 🇮🇳 भारत रिचार्जबाट रिचार्ज हुन्छन् (/recharge पठाउनुहोस्); यहाँ नेपालको नम्बर लेख्नुहोस्।
err-foreign-number = यहाँ नेपालका नम्बर मात्र तिर्न सकिन्छ: अर्को देशको कोड बिना नम्बर लेख्नुहोस्।
err-amount-format = कृपया रुपैयाँमा रकम टाइप गर्नुहोस्, जस्तै 100 वा 250.50।
err-amount-grouping = अल्पविराम (,) अङ्कका समूहबीच मात्र आउँछ, जस्तै 1,000 वा 1,00,000; पैसा थोप्लोपछि लेखिन्छ, जस्तै 250.50। कृपया रकम फेरि टाइप गर्नुहोस्।
err-amount-currency = { $asked ->
    [in] यो रकम भारतीय रुपैयाँ (₹) मा सोधिएको हो, तपाईंले नेपाली रुपैयाँ लेख्नुभयो। कृपया रु बिना ₹ मा रकम लेख्नुहोस्, जस्तै 500।
   *[np] यो रकम नेपाली रुपैयाँ (रु) मा सोधिएको हो, तपाईंले भारतीय रुपैयाँ लेख्नुभयो। कृपया ₹ बिना रु मा रकम लेख्नुहोस्, जस्तै 500।
}
err-amount-below = सबैभन्दा सानो रकम { $min } हो।
err-amount-above = सबैभन्दा ठूलो रकम { $max } हो।
err-month-range = कृपया बटनबाट महिना छान्नुहोस्।
err-too-long = यो धेरै लामो भयो (बढीमा { $max } अक्षर)।

confirm-title = कृपया आफ्नो अर्डर जाँच्नुहोस्:
confirm-operator = अपरेटर: { $operator }
confirm-number = नम्बर / खाता: { $number }
confirm-package = प्याकेज: { $package }
confirm-amount = रकम: { $amount }
confirm-fees = सेवा शुल्क: { $fee }
confirm-fee = शुल्क: { $fee }
confirm-discount = छुट: −{ $discount }
confirm-total = जम्मा तिर्नुपर्ने: { $total }
confirm-balance-after = पछिको मौज्दात: { $balance }
confirm-price-changed = यो पुष्टि देखाएपछि मूल्य बदलियो (नयाँ दर वा मूल्य सूची)। केही पनि काटिएको छैन; अर्डर नयाँ मूल्यमा फेरि जाँचिन्छ।
confirm-total-inr = जम्मा: { $total }
confirm-pay-npr = मौज्दातबाट तिर्नुपर्ने: { $npr } (₹1 = रु { $rate })
balance-short = तपाईंको मौज्दात { $balance } छ र यो अर्डरको मूल्य { $total } हो: { $shortfall } नपुग। कृपया मौज्दातमा पैसा थप्नुहोस् (एजेन्टले थपिदिन सक्छन्) र फेरि प्रयास गर्नुहोस्।
confirm-question = अहिले तिर्ने?

limit-daily-cap = तपाईंले आजको { $cap } को सीमा पुर्‍याउनुभयो। यो मध्यरातमा नयाँ हुन्छ: { $time } देखि फेरि अर्डर गर्न सक्नुहुन्छ।
limit-daily-cap-order = यो अर्डरले आजको { $cap } को सीमाबाट { $total } लिन्छ, तर आज { $left } मात्र बाँकी छ: अहिले { $left } सम्मको अर्डर गर्न सक्नुहुन्छ, वा यो अर्डर { $time } देखि।
limit-daily-cap-order-india = आजको सीमा नेपाली रुपैयाँमा हुन्छ: { $amount } को यो अर्डरले (रूपान्तरण गरेर, सेवा शुल्कसहित) आजको { $cap } को सीमाबाट { $total } लिन्छ, तर आज { $left } मात्र बाँकी छ। रूपान्तरित जम्मा { $left } सम्म हुने रकमको अर्डर अहिले गर्न सक्नुहुन्छ, वा यो अर्डर { $time } देखि।
limit-rate = तपाईंले प्रति घण्टा अर्डरको सीमा ({ $count }) पुर्‍याउनुभयो; अर्को { $time } देखि।
package-over-limit = तपाईंले आज तिर्न सक्ने बाँकी रकमभन्दा महँगा प्याकहरू देखाइएका छैनन्।
package-none-today = यीमध्ये कुनै पनि प्याक तपाईंले आज तिर्न सक्ने बाँकी रकम ({ $left }) भित्र पर्दैन; सीमा मध्यरातमा नयाँ हुन्छ।

receipt-processing = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: ⏳ प्रक्रियामा
receipt-status = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: { $status }
receipt-already = यो अर्डर पहिले नै गरिएको छ: सन्दर्भ { $ref }।
confirm-placed-already = यो अर्डर पहिले नै गरिएको छ: सन्दर्भ { $ref }, अवस्था { $status }। यो फेरि गरिँदैन र फेरि शुल्क लाग्दैन; /status ले स्थिति देखाउँछ।
order-checking = ⚠️ अर्डर { $ref } प्रक्रिया गर्दा हाम्रो तर्फबाट केही गडबड भयो। हामी अपरेटरसँग यसको जाँच गर्दैछौं र नतिजाको सन्देश पठाउनेछौं। कृपया यसबीच फेरि अर्डर नगर्नुहोस्; /status ले स्थिति देखाउँछ।

status-placed = ⏳ प्राप्त भयो
status-submitting = ⏳ प्रक्रियामा
status-queued = ⏳ लाइनमा
status-pending = ⏳ बाँकी
# रसिदमा queued र pending उस्तै (src/orders/model.ts RECEIPT_RANK).
receipt-status-open = ⏳ अपरेटरकहाँ
receipt-will-follow = अपरेटरले जवाफ दिनासाथ हामी तपाईंलाई सन्देश पठाउनेछौं, प्रायः केही मिनेटभित्र।
status-staff-follow = अझै टुंगिएको छैन: अपरेटरले जवाफ दिनासाथ अर्डर गर्नेलाई सन्देश जान्छ।
status-unknown = ⏳ अपरेटरसँग जाँच हुँदै
status-success = ✅ सफल
status-failed = ❌ असफल

notify-success = ✅ अर्डर { $ref } सफल भयो।
    { $operator } · { $number } · { $amount }
notify-failed = ❌ अर्डर { $ref } असफल भयो। कुनै रकम काटिएन।
    { $operator } · { $number } · { $amount }
    कारण: { $reason }
notify-admin-stuck = ⚠️ अर्डर { $ref } ({ $operator }, { $amount }) { $minutes } मिनेटपछि पनि टुंगिएको छैन। कृपया प्रदायकसँग जाँच्नुहोस्।
notify-admin-contradicted-failed = ⚠️ अर्डर { $ref } ({ $operator }, { $number }, { $amount }) सफल भनी दर्ता भएको थियो र ग्राहकबाट यसको रकम लिइएको थियो, तर एग्रिगेटरले अहिले यो असफल भयो भन्छ। { $owed } एग्रिगेटरसँग अर्डर जाँच्नुहोस् (उसको वालेटमा रकम फिर्ता आएको देखिनुपर्छ)। आफैं केही पनि सारिएको छैन: सच्याउन एडमिन चाहिन्छ।
notify-admin-contradicted-success = ⚠️ अर्डर { $ref } ({ $operator }, { $number }, { $amount }) असफल भनी दर्ता भएको थियो र ग्राहकबाट रकम लिइएको थिएन, तर एग्रिगेटरले अहिले यो सफल भयो भन्छ: ग्राहकबाट नलिईकनै एग्रिगेटरमा रहेको व्यापारीको वालेटबाट रकम काटियो। एग्रिगेटरसँग अर्डर जाँच्नुहोस्। आफैं केही पनि सारिएको छैन: सच्याउन एडमिन चाहिन्छ।
notify-admin-reversed = ⚠️ अर्डर { $ref } ({ $operator }, { $number }, { $amount }) सफल भनी दर्ता भएको थियो र ग्राहकबाट यसको रकम लिइएको थियो, तर एग्रिगेटरले अहिले "{ $word }" भन्छ: उसले रिचार्ज उल्टाएर रकम फिर्ता लियो (वा लिनेछ)। { $owed } एग्रिगेटरसँग अर्डर जाँच्नुहोस् (उसको वालेटमा रकम फिर्ता आएको देखिनुपर्छ)। आफैं केही पनि सारिएको छैन: सच्याउन एडमिन चाहिन्छ।
notify-admin-reversed-settled = ⚠️ अर्डर { $ref } ({ $operator }, { $number }, { $amount }) एडमिन { $admin } ले सफल भनी टुंग्याउनुभएको थियो र ग्राहकबाट यसको रकम लिइएको थियो, तर एग्रिगेटरले अहिले "{ $word }" भन्छ: उसले रिचार्ज उल्टाएर रकम फिर्ता लियो (वा लिनेछ)। { $owed } एग्रिगेटरसँग अर्डर जाँच्नुहोस् (उसको वालेटमा रकम फिर्ता आएको देखिनुपर्छ)। आफैं केही पनि सारिएको छैन: सच्याउन एडमिन चाहिन्छ।
# What the contradiction alerts above say of the money ($owed): a complaint refund already
# booked for the order is told as paid, else the customer may be owed one (review s33-rvcomp 5).
notify-admin-refund-owed = ग्राहकलाई रकम फिर्ता दिनुपर्ने हुन सक्छ।
notify-admin-refund-paid = उजुरी { $complaint } मा यसको { $paid } ग्राहकलाई पहिले नै फिर्ता दिइसकिएको छ ({ $time }): त्यो फेरि फिर्ता नदिनुहोस्।
notify-reason-unknown = अपरेटरले यो पूरा गरेन

status-prompt = अर्डरको सन्दर्भ नम्बर (वा कारोबार आईडी) पठाउनुहोस्।
lookup-cancelled = रद्द गरियो: केही खोजिएन। यसले कुनै अर्डर वा भुक्तानीमा केही बदल्दैन; तपाईंका अर्डर /history मा देखिन्छन्।
lookup-ended = रोकियो: केही खोजिएन। यसले कुनै अर्डर वा भुक्तानीमा केही बदल्दैन; तपाईंका अर्डर /history मा देखिन्छन्।
lookup-leave-question = यो खोजी रोक्ने?
status-not-found = त्यो नम्बरको कुनै अर्डर भेटिएन।
status-not-yours = त्यो नम्बरको कुनै अर्डर भेटिएन।
status-result = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: { $status }
    समय: { $time }
status-provider-result = प्रदायकका अनुसार: अर्डर { $ref }, { $operator } · { $number }, { $amount }, अवस्था: { $status }
status-invalid = सन्दर्भ नम्बरमा अङ्क मात्र हुन्छन्।

history-empty = तपाईंको कुनै अर्डर छैन। अर्डर गर्न /recharge पठाउनुहोस्।
history-title = तपाईंका पछिल्ला अर्डरहरू:
history-title-page = तपाईंका पछिल्ला अर्डरहरू (पृष्ठ { $page }):
history-item =
    { $time } · { $category }
    { $operator } · { $number } · { $status }
    जम्मा: { $total } · रेफरेन्स: { $ref }
history-repeat = 🔁 फेरि { $number } · { $amount }
history-prev = ⬅️ अघिल्लो
history-next = अर्को ➡️

balance-result = वालेट ब्यालेन्स: { $amount }
balance-admin-own = 💳 तपाईंको आफ्नै मौज्दात (तपाईंका आफ्नै अर्डर यसैबाट तिरिन्छन्): { $available }
balance-denied = यो आदेश एडमिनका लागि मात्र हो।

# status, history, repeat, balance
status-transaction = कारोबार आईडी: { $tx }
status-reason = कारण: { $reason }
status-customer = ग्राहक (टेलिग्राम आईडी): { $user }
status-customer-whatsapp = ग्राहक (WhatsApp खाता आईडी): { $user }
status-wallet = वालेट: { $debit } काटियो (सेवा शुल्क { $fee }), बाँकी ब्यालेन्स: { $balance }
balance-unavailable = रिचार्ज सेवाले अहिले जवाफ दिइरहेको छैन। कृपया एक मिनेटपछि फेरि प्रयास गर्नुहोस्।
repeat-intro = 🔁 अर्डर { $ref } फेरि गर्दै।
repeat-unavailable = यो अर्डर अब फेरि गर्न मिल्दैन। नयाँ अर्डरका लागि /recharge पठाउनुहोस्।
repeat-package-gone = "{ $package }" प्याकेज { $number } का लागि अब उपलब्ध छैन। अर्को छान्न /recharge पठाउनुहोस्।
repeat-lookup-failed = यो अर्डर फेरि गर्न सकिनँ: { $message }
    फेरि सुरु गर्न /recharge पठाउनुहोस्।
repeat-nothing-due = यो बिलमा अहिले तिर्न बाँकी केही छैन। अग्रिम तिर्न चाहनुहुन्छ भने /recharge पठाउनुहोस्।
repeat-bill-under-way = यो बिलको भुक्तानी (अर्डर { $ref }) अझै प्रक्रियामा छ, त्यसैले अहिले फेरि तिर्दिनँ। यसको नतिजा सन्देशमा आउनेछ; त्यसपछि /history हेर्नुहोस्।
repeat-bill = { $name } को बिल: अहिले { $amount } तिर्न बाँकी।

# bill (shared by the water and electricity flows)
bill-offices-failed = कार्यालयहरूको सूची ल्याउन सकिएन ({ $reason })। कुनै रकम काटिएको छैन। केही बेरपछि /recharge पठाएर फेरि प्रयास गर्नुहोस्।
bill-account-invalid = अक्षर, अङ्क र . - _ / मात्र प्रयोग गर्नुहोस् (खाली ठाउँ नराख्नुहोस्)।
bill-month-1 = बैशाख
bill-month-2 = जेठ
bill-month-3 = असार
bill-month-4 = साउन
bill-month-5 = भदौ
bill-month-6 = असोज
bill-month-7 = कात्तिक
bill-month-8 = मंसिर
bill-month-9 = पुस
bill-month-10 = माघ
bill-month-11 = फागुन
bill-month-12 = चैत
bill-field-previous = अघिल्लो बक्यौता { $amount }
bill-field-current = यो महिना { $amount }
bill-field-amount = बिल { $amount }
bill-field-fine = जरिवाना { $amount }
bill-field-penalty = विलम्ब शुल्क { $amount }
bill-field-discount = छुट { $amount }
bill-field-total = जम्मा { $amount }
bill-field-payable = तिर्नुपर्ने { $amount }
bill-row = • { $heading }: { $details }
bill-address = ठेगाना: { $address }
bill-total = जम्मा बक्यौता: { $amount }
bill-nothing-due = अहिले यो खातामा कुनै बक्यौता छैन।
bill-ask-amount = { $due } बक्यौता तिर्नुहोस्, वा अर्को रकम ({ $max } सम्म) टाइप गर्नुहोस्, जस्तै अग्रिम भुक्तानीका लागि:
bill-pay-due = 💳 बक्यौता { $amount } तिर्ने
bill-ask-advance = तपाईं अग्रिम भुक्तानी गर्न सक्नुहुन्छ: { $max } सम्मको रकम टाइप गर्नुहोस्।
bill-confirm-office = कार्यालय: { $office }
bill-confirm-customer = ग्राहक: { $name }
bill-confirm-due = बिलको बक्यौता: { $amount }

# --- h-catalog: the provider's catalogue and the India DTH bill (issue 16) ---
catalog-category-withdrawn = माफ गर्नुहोस्, अहिले यो वर्गमा केही पनि उपलब्ध छैन। कुनै रकम काटिएको छैन। /recharge पठाएर अर्को छान्नुहोस्।
catalog-operator-withdrawn = माफ गर्नुहोस्, { $operator } अब उपलब्ध छैन, त्यसैले यो अर्डर राखिएन र कुनै रकम काटिएको छैन। /recharge पठाएर फेरि सुरु गर्नुहोस्।
# --- issue 15: receipts and pushes with the money (h-books) ---
receipt-title = 🧾 अर्डर { $ref }
receipt-line-tx = कारोबार आईडी: { $tx }
receipt-line-time = मिति: { $time }
receipt-line-category = सेवा: { $category }
receipt-line-package = प्याकेज: { $package }
receipt-line-month = बिलको महिना: { $month }
receipt-line-main = { $operator } · { $number } · { $amount }
receipt-line-fee = शुल्क: { $fee }
receipt-line-discount = छुट: −{ $discount }
receipt-line-total = जम्मा: { $total }
receipt-line-total-paid = जम्मा तिरेको: { $total }
receipt-line-balance = पछिको मौज्दात: { $balance }
# A successful order refunded on a complaint (review s33-rvtruth 7): the refund, and for a part
# refund what the customer paid in the end.
receipt-line-refunded = { $time } मा { $refund } फिर्ता गरियो (उजुरी { $complaint })
receipt-line-paid-in-end = अन्तमा तिरेको: { $paid }
receipt-line-held-npr = मौज्दातबाट रोकिएको: { $npr } (₹1 = रु { $rate })
receipt-line-paid-npr = मौज्दातबाट { $npr } तिरियो (₹1 = रु { $rate })
receipt-line-status = अवस्था: { $status }
notify-title-success = ✅ अर्डर { $ref } सफल भयो।
notify-title-failed = ❌ अर्डर { $ref } असफल भयो।
notify-returned = { $total } तपाईंको मौज्दातमा फिर्ता गरियो।
notify-nothing-charged = कुनै रकम काटिएन।
notify-reason = कारण: { $reason }
notify-service-unavailable = सेवा केही समयका लागि उपलब्ध छैन; कृपया केही बेरपछि फेरि प्रयास गर्नुहोस्
# --- end issue 15 (h-books) ---

# --- issue 15: the admin's books, /books (h-books) ---
cmd-books = व्यापारीको खाता (एडमिन)
books-title = 📒 { $time } को खाता
books-customers = ग्राहकहरूको मौज्दात, खातामा लेखिएको (रोकिएको समेत): { $balance } (जसमध्ये चलिरहेका अर्डरका लागि रोकिएको: { $held }; { $count } खाता)
books-agents = एजेन्टहरूको मौज्दात, खातामा लेखिएको (रोकिएको समेत): { $balance } ({ $count } खाता)
books-fees = शुल्क आम्दानी: { $fees }
books-margin = नाफा: { $orders } अर्डरमा { $margin } (जानकारी दिइएको कमिसन: { $commission })
books-refunds = उजुरीमा फिर्ता: { $count } पटक, { $sum } (जसमा शुल्क: { $fee }); माथिको नाफा र शुल्क आम्दानी यी घटाएपछिको हो।
books-refunds-unread = ⚠️ { $count } पटकको फिर्ता ({ $sum }) को अर्डर पढ्न सकिएन: तिनको शुल्क भाग थाहा छैन र माथिको शुल्क आम्दानीमै छ (बढीमा { $sum })।
books-refunds-out-of-margin = सेवा प्रदायकको कटौती बिना लेखिएका अर्डरका { $count } पटकको फिर्ता ({ $sum }): ती अर्डरझैँ नाफामा गनिएको छैन।
books-float = सेवा प्रदायकमा रहेको वालेट: खाताअनुसार { $expected }, प्रदायक भन्छ { $reported } (अझै नलेखिएको कटौती: { $flying })
books-drift = फरक: { $drift } (सहनसीमा { $tolerance })
books-balanced = ✅ खाता मिल्छ: सबै खाताको जोड शून्य छ।
books-unbalanced = ❌ खाता मिल्दैन: { $problems } समस्या। जर्नल जाँच्नुहोस्।
books-unknown = थाहा छैन
# --- end /books (h-books) ---
# --- top-up: adding money with Khalti (issue 17) ---
topup-button = ➕ पैसा थप्नुहोस्
topup-ask-amount = मौज्दातमा कति थप्ने? { $min } देखि { $max } सम्मको रकम लेख्नुहोस्, वा छान्नुहोस्:
topup-not-offered = यहाँ अनलाइन पैसा थप्ने सुविधा छैन। एजेन्टले तपाईंको मौज्दातमा पैसा थपिदिन सक्छन्।
topup-gateway-down = खल्तीले अहिले जवाफ दिइरहेको छैन। केही काटिएको छैन। केही मिनेटपछि /addmoney ले फेरि प्रयास गर्नुहोस्।
topup-refused = अहिले अनलाइन पैसा थप्ने सुविधा उपलब्ध छैन। केही काटिएको छैन, र हाम्रो टोलीलाई जानकारी दिइएको छ। त्यतिन्जेल एजेन्टले तपाईंको मौज्दातमा पैसा थपिदिन सक्छन्।
topup-daily-cap = आज तपाईं बढीमा { $remaining } मात्र थप्न सक्नुहुन्छ।
topup-pay-button = खल्तीबाट तिर्नुहोस्
topup-checkout = { $amount } थप्न "खल्तीबाट तिर्नुहोस्" थिचेर ब्राउजरमा तिर्नुहोस् (खल्ती वालेट, इ-बैंकिङ, मोबाइल बैंकिङ वा कार्ड)। लिंक केही समयका लागि मात्र चल्छ।
    खल्तीले भुक्तानी पुष्टि गरेपछि म रकम तपाईंको मौज्दातमा थपेर यहीँ भन्छु। रद्द गर्नुभयो वा लिंकको समय सकियो भने केही थपिँदैन।
topup-credited = ✅ { $amount } तपाईंको मौज्दातमा थपियो। मौज्दात: { $balance }
topup-expired = { $amount } को भुक्तानी लिंकको समय सकियो। केही थपिएन।
topup-cancelled = { $amount } को भुक्तानी रद्द भयो। केही थपिएन।
topup-refunded = खल्तीले तपाईंको { $amount } को भुक्तानी फिर्ता गर्‍यो; मौज्दातबाट { $reversed } घटाइयो। मौज्दात: { $balance }
# --- h-partial: a partial refund at Khalti (the admin enters the amount returned) ---
topup-refund-partial = खल्तीका अनुसार तपाईंको { $amount } को भुक्तानीको केही भाग फिर्ता भयो। कति फिर्ता भयो भनेर हाम्रो टोलीले जाँच गर्दैछ; अहिलेलाई तपाईंको मौज्दात उस्तै छ। काम सकिएपछि हामी यहीँ सन्देश पठाउनेछौं।
topup-refunded-part = खल्तीले तपाईंको { $amount } को भुक्तानीबाट { $returned } फिर्ता गर्‍यो; मौज्दातबाट { $reversed } घटाइयो। मौज्दात: { $balance }
# --- h-partial2: a refund whose amount Khalti does not say, credited or not ---
topup-refund-unknown = खल्तीका अनुसार तपाईंको { $amount } को भुक्तानी फिर्ता भयो, तर कति फिर्ता भयो भनेको छैन। हाम्रो टोलीले जाँच गर्दैछ; अहिलेलाई तपाईंको मौज्दात उस्तै छ। काम सकिएपछि हामी यहीँ सन्देश पठाउनेछौं।
topup-refunded-rest = खल्तीले तपाईंको { $amount } को भुक्तानीबाट { $returned } फिर्ता गर्‍यो; बाँकी { $credited } मौज्दातमा थपियो। मौज्दात: { $balance }
topup-refunded-uncredited = तपाईंको { $amount } को भुक्तानी मौज्दातमा थपिनुअघि नै खल्तीले फिर्ता गर्‍यो: मौज्दातमा केही थपिएन, केही घटाइएन। मौज्दात: { $balance }
# --- h-payfee: a refund's rest the balance lacked, taken back later (review s31-pay, 4b) ---
topup-refund-owed = तपाईंको मौज्दात त्यति थिएन: बाँकी { $owed } मौज्दातमा पैसा आउँदा (तपाईंले थप्दा, वा कुनै अर्डरको भुक्तानी फिर्ता हुँदा) घटाइन्छ।
topup-refund-taken = खल्तीले तपाईंको { $amount } को भुक्तानी पहिले नै फिर्ता गरेको थियो, तर त्यतिबेला मौज्दात पुगेको थिएन: अहिले मौज्दातबाट थप { $taken } घटाइयो; अझै { $owed } घटाउन बाँकी छ। मौज्दात: { $balance }
topup-refund-taken-all = खल्तीले तपाईंको { $amount } को भुक्तानी पहिले नै फिर्ता गरेको थियो, तर त्यतिबेला मौज्दात पुगेको थिएन: बाँकी { $taken } अहिले मौज्दातबाट घटाइयो; अब केही बाँकी छैन। मौज्दात: { $balance }
writeoff-usage = /writeoff <भुक्तानी आइडी> <कारण> पठाउनुहोस्: फिर्ता भएको टप-अपले अझै फिर्ता दिनुपर्ने रकम (फिर्ता हुँदा ग्राहकको मौज्दात पुगेको थिएन) कारणसहित समायोजन खाता बाट खर्च लेखिन्छ, र त्यो रकम घटाउन छोडिन्छ।
writeoff-done = टप-अप { $pid } (प्रयोगकर्ता { $user }) को { $amount } खर्च लेखियो: तपाईंको कारणसहित समायोजन खाता बाट; ग्राहकबाट अब केही घटाइँदैन।
writeoff-nothing = टप-अप { $pid } ले केही फिर्ता दिनुपर्दैन (फिर्ता भएको छैन, पूरै घटाइसकियो, वा पहिले नै खर्च लेखियो): केही लेखिएन।
writeoff-unknown = टप-अप { $pid } छैन: केही लेखिएन।
writeoff-refused = खाताले टप-अप { $pid } को खर्च लेखन अस्वीकार गर्‍यो: केही लेखिएन। कृपया हेर्नुहोस्।
topup-rejected-refund = खल्तीका अनुसार तपाईंको { $amount } को भुक्तानी पूरै वा केही भाग फिर्ता भयो। हाम्रो टोलीले यसको कुनै पनि रकम मौज्दातमा थप्न सकेन; केही थपिएन। खल्तीले केही भाग राखेको छ भने पसलले त्यो भाग खल्तीमार्फत फिर्ता गर्छ; नआए पसललाई सोध्नुहोस्।
help-topup = /addmoney – खल्तीबाट मौज्दातमा पैसा थप्नुहोस्
cmd-addmoney = पैसा थप्नुहोस्
# ---- accounts: registration, access modes, cash-in, credit, reversal, /balance (issue 15, h-accounts) ----
cmd-register = मेरो फोन नम्बरले दर्ता गर्नुहोस्
cmd-cashin = ग्राहकका लागि नगद जम्मा (एजेन्ट)
cmd-credit = एजेन्टलाई रकम थप्नुहोस् (एडमिन)
cmd-reverse = नगद जम्मा वा रकम थप फिर्ता गर्नुहोस् (एडमिन)
register-button = 📱 मेरो फोन नम्बर पठाउनुहोस्
register-prompt = अर्डर गर्न आफ्नै फोन नम्बरले दर्ता गर्नुहोस्: तलको "📱 मेरो फोन नम्बर पठाउनुहोस्" थिच्नुहोस्। तपाईंले पसलमा नगद तिर्दा पसलले यही नम्बरबाट तपाईंको खाता भेट्छ।
register-already = तपाईं { $phone } बाट दर्ता हुनुहुन्छ।
register-not-yours = यो तपाईंको आफ्नै सम्पर्क होइन। आफ्नै नम्बरले मात्र दर्ता हुन्छ: तलको "📱 मेरो फोन नम्बर पठाउनुहोस्" थिच्नुहोस्।
register-bad-number = यो फोन नम्बर पढ्न सकिएन। फेरि प्रयास गर्न तलको "📱 मेरो फोन नम्बर पठाउनुहोस्" थिच्नुहोस्।
register-done = ✅ { $phone } बाट दर्ता भयो। अब पसलले यही नम्बरबाट तपाईंको मौज्दातमा पैसा थप्न सक्छ। मौज्दात हेर्न: /balance; अर्डर गर्न: /recharge।
register-done-staff = ✅ { $phone } बाट दर्ता भयो।
access-register = कृपया पहिले दर्ता गर्नुहोस्: तलको "📱 मेरो फोन नम्बर पठाउनुहोस्" थिच्नुहोस्। केही अर्डर भएन, केही काटिएन।
access-private = यो बोट निजी हो: यहाँ व्यापारीका कर्मचारीले मात्र अर्डर गर्न सक्छन्। केही अर्डर भएन, केही काटिएन।
party-customer = ग्राहक { $who }
party-agent = एजेन्ट { $who }
party-merchant = व्यापारीको कोष
accounts-failed = भएन: यो रसिद नम्बर अर्कै कामका लागि प्रयोग भइसकेको छ। केही सरेन; कृपया फेरि सुरु गर्नुहोस्।
cashin-denied = /cashin एजेन्टका लागि मात्र हो।
role-gone = गरिएन: { $command } अब तपाईंले चलाउन मिल्दैन (पसलले को-कसले चलाउन पाउने भन्ने बदलेको छ)। केही सारिएन: कुनै मौज्दात बदलिएन।
cashin-staff-mode = नगद जम्मा बन्द छ: यस पसलका अर्डर व्यापारीको वालेटबाट तिरिन्छन्, त्यसैले ग्राहकको यहाँ खर्च गर्ने मौज्दात हुँदैन। यसका लागि नगद नलिनुहोस्; केही सरेन।
cashin-ask-phone = 💵 नगद जम्मा: ग्राहकको फोन नम्बर? (9841234567 जस्ता 10 अङ्क, वा भारतका लागि +91 र नम्बर)
cashin-bad-phone = यो फोन नम्बर होइन: 10 अङ्क (9841234567) वा देश कोडसहितको नम्बर (+977…, +91…) लेख्नुहोस्।
cashin-unknown-phone = { $phone } बाट कोही दर्ता छैन। ग्राहकलाई यो बोटमा /register पठाउन भन्नुहोस्, वा नम्बर जाँच्नुहोस्।
cashin-self = यो तपाईंकै नम्बर हो: नगद जम्मा ग्राहकका लागि हो।
cashin-no-balance = तपाईंको एजेन्ट मौज्दात { $balance } छ: जम्मा गर्ने रकम छैन। एडमिनलाई रकम थपिदिन भन्नुहोस्।
cashin-ask-amount = तपाईंले कति नगद लिनुभयो? { $min } देखि { $max } सम्म (तपाईंको मौज्दात)।
cashin-ask-amount-capped = तपाईंले कति नगद लिनुभयो? { $min } देखि { $max } सम्म (एक पटकको नगद जम्माको सीमा; तपाईंको मौज्दात { $balance } छ)।
cashin-confirm = { $phone } को मौज्दातमा { $amount } थप्ने?
    त्यसपछि तपाईंको मौज्दात: { $after }
    रसिद: { $ref }
cashin-done = ✅ नगद जम्मा भयो: { $phone } लाई { $amount }।
    तपाईंको मौज्दात: { $balance }
    रसिद: { $ref }
cashin-received = 💰 तपाईंको मौज्दातमा { $amount } थपियो (पसलमा नगद तिरिएको)।
    तपाईंको मौज्दात: { $balance }
    रसिद: { $ref }
cashin-short = भएन: मौज्दात { $balance } छ, { $shortfall } नपुग। केही सरेन।
credit-denied = /credit एडमिनका लागि मात्र हो।
credit-no-agents = कुनै एजेन्ट तोकिएको छैन।
credit-ask-agent = कुन एजेन्टलाई रकम थप्ने? एउटा थिच्नुहोस्, वा उनको टेलिग्राम आईडी लेख्नुहोस्।
credit-bad-agent = { $id } एजेन्ट होइन: एजेन्टमध्ये एउटा थिच्नुहोस्, वा एजेन्टको टेलिग्राम आईडी लेख्नुहोस्।
credit-ask-amount = एजेन्ट { $agent } ले कति जम्मा गर्नुभयो? { $min } देखि { $max } सम्म।
credit-confirm = एजेन्ट { $agent } लाई { $amount } थप्ने?
    रसिद: { $ref }
credit-done = ✅ एजेन्ट { $agent } लाई { $amount } थपियो।
    उनको मौज्दात: { $balance }
    रसिद: { $ref }
credit-received = 💰 व्यापारीले तपाईंको एजेन्ट मौज्दातमा { $amount } थप्नुभयो।
    तपाईंको मौज्दात: { $balance }
    रसिद: { $ref }
reverse-denied = /reverse एडमिनका लागि मात्र हो।
reverse-ask-id = कुन रसिद फिर्ता गर्ने? रसिदमा देखिएजस्तै नम्बर लेख्नुहोस्।
reverse-unknown = रसिद { $ref } भएको कुनै नगद जम्मा वा रकम थप छैन। नम्बर जाँचेर फेरि लेख्नुहोस्।
reverse-not-reversible = रसिद { $ref } आफैं फिर्ता हो, यसलाई फिर्ता गर्न सकिँदैन।
reverse-already = रसिद { $ref } पहिले नै फिर्ता भइसकेको छ (रसिद { $rev })। केही सरेन।
reverse-show = रसिद { $ref }: { $from } बाट { $to } लाई { $amount }, { $time }।
reverse-ask-reason = किन फिर्ता गर्ने? केही शब्द; यी हिसाबमा राखिन्छन्।
reverse-bad-reason = कृपया 3 देखि 200 अक्षरको कारण दिनुहोस्।
reverse-confirm = रसिद { $ref } फिर्ता गर्ने: { $to } बाट { $from } लाई { $amount }?
    कारण: { $reason }
reverse-done = ✅ फिर्ता भयो: { $to } बाट { $from } लाई { $amount }।
    रसिद: { $rev }
reverse-refused = अस्वीकार: { $to } सँग { $balance } मात्र बाँकी छ, फिर्ता गर्नुपर्ने { $amount } मा { $shortfall } नपुग। केही सरेन।
reverse-notice = ↩️ व्यापारीले रसिद { $ref } को { $amount } फिर्ता लिनुभयो: { $reason }
    तपाईंको मौज्दात: { $balance }
balance-customer = 💰 तपाईंको मौज्दात: { $available }
balance-held = चलिरहेका अर्डरका लागि रोकिएको: { $held }
balance-movements = पछिल्ला कारोबार:
balance-none = अहिलेसम्म कुनै कारोबार छैन।
balance-unregistered = तपाईं अझै दर्ता हुनुहुन्न: फोन नम्बर पठाउन /register पठाउनुहोस्; त्यसपछि पसलले त्यही नम्बरबाट तपाईंको मौज्दातमा पैसा थप्न सक्छ।
balance-how-to-add = पैसा थप्न पसलमा नगद तिर्नुहोस्: उनीहरूले तपाईंको नम्बर { $phone } मा थप्छन्।
balance-agent = 🏪 तपाईंको एजेन्ट मौज्दात: { $available }
balance-agent-own = 💳 तपाईंको आफ्नै मौज्दात (तपाईंका आफ्नै अर्डर यसैबाट तिरिन्छन्): { $available }
balance-agent-today = आजका नगद जम्मा: { $count }, जम्मा { $total }।
balance-agent-line = { $time } · { $customer } लाई { $amount }
balance-books = व्यापारीको हिसाब: /books
movement-hold = { $time } · अर्डर { $ref } का लागि −{ $amount } रोकियो
movement-post = { $time } · अर्डर { $ref } का लागि { $amount } तिरियो
movement-void = { $time } · +{ $amount } फुकुवा: अर्डर { $ref } असफल
movement-cash-in = { $time } · +{ $amount } पसलमा नगद तिरिएको
movement-demo = { $time } · +{ $amount } नमुना रकम
movement-topup = { $time } · +{ $amount } अनलाइन पैसा थपिएको
movement-reversal = { $time } · व्यापारीले −{ $amount } फिर्ता लिनुभयो (उल्टाइएको)
movement-in = { $time } · +{ $amount } जम्मा
movement-out = { $time } · −{ $amount } खर्च
balance-partial = कारोबारको सूची अहिले यहाँ देखाउन धेरै लामो छ; माथिको मौज्दात ठीक हो।
balance-staff = तपाईंका अर्डर व्यापारीको वालेटबाट तिरिन्छन्: यहाँ तपाईंको आफ्नै मौज्दात छैन।
help-accounts = /balance – तपाईंको मौज्दात र पछिल्ला कारोबार
    /register – आफ्नै फोन नम्बरले दर्ता (पसलले यही नम्बरबाट तपाईंको मौज्दातमा पैसा थप्छ)
help-agent-cashin = /cashin – ग्राहकले तपाईंलाई नगद तिरे: उनको फोन नम्बरबाट उनको मौज्दातमा थप्नुहोस्। /balance ले तपाईंको एजेन्ट मौज्दात र आजका नगद जम्मा देखाउँछ।
help-admin-accounts = /credit – रकम जम्मा गरेका एजेन्टलाई थप्नुहोस्; /reverse – नगद जम्मा वा रकम थप कारणसहित फिर्ता गर्नुहोस्।
# --- h-flows (issue 16: Back, Edit at the confirmation, operator mismatch, limits up front) ---
flow-edit-number = ✏️ नम्बर
flow-edit-amount = ✏️ रकम
flow-edit-package = ✏️ प्याकेज
flow-edit-customer = ✏️ ग्राहक आईडी
confirm-use-buttons = कृपया तलका बटन प्रयोग गर्नुहोस्: ✅ पुष्टि, ✏️ बदल्न वा ✖ रद्द।
confirm-use-buttons-no-edit = कृपया तलका बटन प्रयोग गर्नुहोस्: ✅ पुष्टि वा ✖ रद्द।
bill-due-over-limit = बक्यौता तपाईंले आज तिर्न सक्ने बाँकी रकम ({ $left }) भन्दा बढी छ: अहिले त्यसको केही भाग तिर्न सक्नुहुन्छ।
common-idle-ended-seconds = { $seconds } सेकेन्डसम्म जवाफ नआएकाले अघिल्लो अनुरोध बन्द भयो। कुनै रकम काटिएन।
common-start-again = 🔁 फेरि सुरु गर्ने

## India orders and a prepaid balance (kept in Nepal rupees; no exchange rate yet)

# ---- saved numbers and billers (/saved, "Save as…"; issue 16) ----
cmd-saved = मेरा सुरक्षित नम्बर
saved-save-as = 🏷 नाम राखेर सुरक्षित गर्ने…
saved-another = ➕ अर्को खाता
saved-ask-biller = सुरक्षित गरिएका खातामध्ये एउटा तिर्ने, कि अर्को?
saved-empty = तपाईंको कुनै सुरक्षित नम्बर छैन। कुनै नम्बरमा अर्डर सफल भएपछि त्यो सुरक्षित हुन्छ।
saved-title = तपाईंका सुरक्षित नम्बर र खाताहरू:
saved-choose = नाम बदल्न वा हटाउन एउटा छान्नुहोस्।
saved-entry = { $entry }: नाम बदल्ने कि हटाउने?
saved-rename = ✏️ नाम बदल्ने
saved-delete = 🗑 हटाउने
saved-ask-nickname = { $number } लाई के नाम दिने? 24 अक्षरसम्मको नाम लेख्नुहोस्, जस्तै आमा वा पसलको ल्यान्डलाइन।
saved-nickname-empty = नाम खाली छ।
saved-nickname-too-long = नाम धेरै लामो भयो (बढीमा 24 अक्षर)।
saved-nickname-control = नाममा नियन्त्रण चिन्ह राख्न मिल्दैन।
saved-named = { $entry } नामले सुरक्षित भयो। अर्को पटक यो देखाइनेछ; /saved ले नाम बदल्न वा हटाउन सकिन्छ।
saved-renamed = नाम बदलियो: { $entry }।
saved-gone = त्यो सुरक्षित नम्बर अब छैन (बीचमै हटाइयो)।
saved-flow-cancelled = रद्द गरियो: तपाईंका सुरक्षित नम्बरहरू जस्तै थिए त्यस्तै छन् (/saved ले देखाउँछ)। यसले कुनै अर्डर वा भुक्तानीमा केही बदल्दैन।
saved-flow-ended = रोकियो: तपाईंका सुरक्षित नम्बरहरू जस्तै थिए त्यस्तै छन् (/saved ले देखाउँछ)। यसले कुनै अर्डर वा भुक्तानीमा केही बदल्दैन।
saved-leave-question = यो रोक्ने? तपाईंका सुरक्षित नम्बरहरू जस्तै छन् त्यस्तै रहन्छन्।
saved-delete-question = { $entry } लाई सुरक्षित नम्बरबाट हटाउने?
saved-delete-yes = 🗑 हो, हटाउने
saved-delete-keep = ↩ राख्ने
saved-kept = { $entry } सुरक्षित नै रहन्छ।
saved-deleted = { $entry } हटाइयो।

# --- h-topup: held top-ups (issue 25) ---
topup-held = तपाईंको { $amount } को भुक्तानी मौज्दातमा थप्नुअघि हाम्रो टोलीले जाँच गर्दैछ। केही गुमेको छैन: काम सकिएपछि हामी यहीँ सन्देश पठाउनेछौं।
topup-held-status = तपाईंको { $amount } को भुक्तानी हामी खल्तीसँग जाँच गर्दैछौं: उसको जवाफ स्पष्ट थिएन। तपाईंको मौज्दातमा अहिलेसम्म केही थपिएको छैन। भुक्तानी भएको रहेछ भने हाम्रो टोलीले त्यो थप्छ वा खल्तीबाट फिर्ता गराउँछ; हामी यहीँ सन्देश पठाउनेछौं।
topup-held-paid = तपाईंको { $paid } को भुक्तानी (तपाईंले { $asked } थप्न भन्नुभएको थियो) मौज्दातमा थप्नुअघि हाम्रो टोलीले जाँच गर्दैछ। केही गुमेको छैन: काम सकिएपछि हामी यहीँ सन्देश पठाउनेछौं।
topup-rejected = हाम्रो टोलीले तपाईंको { $amount } को भुक्तानी मौज्दातमा थप्न सकेन; केही थपिएन। तपाईंको खल्ती खाताबाट रकम काटिएको छ भने पसलले खल्तीमार्फत फिर्ता गर्छ; नआए पसललाई सोध्नुहोस्।
topup-rejected-paid = हाम्रो टोलीले तपाईंको { $paid } को भुक्तानी (तपाईंले { $asked } थप्न भन्नुभएको थियो) मौज्दातमा थप्न सकेन; केही थपिएन। तपाईंको खल्ती खाताबाट रकम काटिएको छ भने पसलले खल्तीमार्फत फिर्ता गर्छ; नआए पसललाई सोध्नुहोस्।
cmd-topups = रोकिएका टप-अप: निर्णय
cmd-writeoff = मौज्दातले नपुगेको फिर्ता मिनाहा गर्नुहोस्
# /topups' held top-ups (admins): the buttons, and a credit refused on the figure shown (h-khalti3)
topup-held-credit-asked = { $amount } जम्मा गर्नुहोस् (मागिएको)
topup-held-credit-paid = { $amount } जम्मा गर्नुहोस् (तिरिएको)
topup-held-credit-reported = { $amount } जम्मा गर्नुहोस् (गेटवेले भनेको)
topup-held-reject = अस्वीकार गर्नुहोस् (गेटवेमा फिर्ता)
topup-held-figure-changed = { $pid }: { $gateway } ले अहिले { $now } भन्छ, सन्देशमा देखाइएको { $shown } होइन: केही जम्मा गरिएन। तलका बटनले नयाँ रकम देखाउँछन्; फेरि निर्णय गर्नुहोस्।
topup-held-figure-changed-decided = { $pid }: { $gateway } ले अहिले { $now } भन्छ, सन्देशमा देखाइएको { $shown } होइन: यो थिचाइबाट केही जम्मा गरिएन। यो अब रोकिएको छैन (अर्को निर्णय लिइयो): के बाँकी छ हेर्न /topups पठाउनुहोस्।
topup-held-stale-button = { $pid }: यो बटनमा यसले देखाएको रकम छैन: केही जम्मा गरिएन। हालका बटनका लागि /topups पठाउनुहोस्।
topup-held-not-completed = { $pid }: { $gateway } ले यो भुक्तानी पूरा भएको भन्दैन: अहिले { $said } भन्छ। केही जम्मा गरिएन। पूरा भयो भनेपछि फेरि प्रयास गर्नुहोस्, वा अस्वीकार गर्नुहोस्।
topup-held-not-completed-final = { $pid }: { $gateway } ले अहिले { $said } भन्छ: यसले पूरा भयो भन्ने छैन। केही जम्मा गरिएन। यसलाई अस्वीकार गर्नुहोस्, र उसले राखेको कुनै पैसा { $gateway } को मर्चेन्ट ड्यासबोर्डबाट फिर्ता गर्नुहोस्।
# /topups' own lines (admins; h-kfix): a held top-up's facts, the refusals and outcomes of a
# decision, the open ones past the refund watch, and the records that could not be read
topup-held-title = रोकिएको टप-अप { $pid } ({ $gateway }), प्रयोगकर्ता { $user }।
topup-held-asked = मागिएको { $asked }; { $gateway } को जाँचले { $reported } देखाउँछ (कारोबार { $txn })।
topup-held-asked-order = मागिएको { $asked }; { $gateway } को जाँचले अर्डर { $order } का लागि { $reported } देखाउँछ (कारोबार { $txn })।
topup-held-why = कारण: { $why }।
topup-held-why-amount = रकम सुरु गरिएकोभन्दा फरक छ
topup-held-why-cap = यो एक टप-अपको अधिकतम सीमा वा दैनिक सीमाले दिनेभन्दा बढी छ
topup-held-why-currency = अर्को मुद्रा
topup-held-why-merchant = अर्को अर्डर नम्बर
topup-held-why-status = यसको स्थितिको शब्द गेटवेले जनाएका शब्दमध्ये होइन: भुक्तानी भयो कि भएन थाहा छैन
topup-held-said = { $gateway } को जाँचले स्थिति "{ $said }" भन्यो। भुक्तानी यसको मर्चेन्ट ड्यासबोर्डमा जाँच गर्नुहोस्; जाँचले पूरा भयो भनेपछि मात्र जम्मा गरिन्छ।
topup-held-credited = { $pid }: तपाईंले { $amount } जम्मा गर्नुभयो; ग्राहकलाई जानकारी दिइयो।
topup-held-rejected = { $pid }: तपाईंले अस्वीकार गर्नुभयो: केही जम्मा गरिएन। { $gateway } को मर्चेन्ट ड्यासबोर्डबाट फिर्ता गर्नुहोस्; ग्राहकलाई जानकारी दिइयो।
topup-held-refused-unknown = { $pid }: यस्तो टप-अप छैन।
topup-held-refused-not-held = { $pid }: अब रोकिएको छैन: अर्को निर्णय लिइसकियो।
topup-held-refused-paid-less = { $pid }: मागिएकोभन्दा कम तिरिएको छ: मागिएको रकम जम्मा गर्दा कसैले नतिरेको पैसा थपिन्छ।
topup-held-refused-above-cap = { $pid }: एक टप-अपको अधिकतम सीमा वा आजको बाँकी दैनिक सीमाभन्दा बढी: जम्मा गरिएन।
topup-held-refused-currency = { $pid }: अर्को मुद्रामा तिरिएको: मागिएको रकम जम्मा गर्नुहोस् वा अस्वीकार गर्नुहोस्।
topup-held-refused-ledger-refused = { $pid }: हिसाबले जम्मा अस्वीकार गर्‍यो (सूचना हेर्नुहोस्): केही लेखिएन।
topup-held-refused-gateway-disagrees = { $pid }: गेटवेले यो भुक्तानी त्यो रकमसहित पूरा भएको अब देखाउँदैन (फिर्ता भयो वा बदलियो): जम्मा गरिएन।
topup-held-refused-gateway-unavailable = { $pid }: गेटवेले जवाफ दिएन: केही जम्मा गरिएन; पछि फेरि प्रयास गर्नुहोस्।
topup-past-watch-title = फिर्ता निगरानीपछि पनि खुला (केही जम्मा गरिएको छैन; दिनहुँ जाँचिन्छ; गेटवेको मर्चेन्ट ड्यासबोर्डमा हेर्नुहोस्):
topup-past-watch-line = { $pid } ({ $gateway }, { $id }): प्रयोगकर्ता { $user }, { $amount }, { $status }, { $age } पुरानो
topup-past-watch-initiated = सुरु गरिएको
topup-past-watch-pending = बाँकी
topup-age = { $days } दिन { $hours } घण्टा
topup-unreadable-count = { $count } टप-अप रेकर्ड पढ्न सकिएन (लग हेर्नुहोस्): { $ids }।
topup-unreadable-what = तिनलाई अब जाँचिँदैन, जम्मा वा फिर्ता गरिँदैन, सूचना पनि पठाइँदैन: हरेक भुक्तानी गेटवेको मर्चेन्ट ड्यासबोर्डमा जाँच गर्नुहोस् र डेभलपरहरूलाई भन्नुहोस्।

# --- issue 25: /books says what the check did, inferred debits (h-float) ---
books-drift-now = ⚠️ अहिले फरक सहनसीमाभन्दा बढी छ।
books-drift-unknowns = ⚠️ फरक सहनसीमाभन्दा बढी देखिन्छ, तर { $count } अर्डरको कटौती अझै थाहा छैन: निर्णय छैन।
books-inferred = अर्डरबाट अनुमान गरिएको कटौती (प्रदायकको जवाफ हरायो): { $count } अर्डर, { $sum }
books-check-never = खाता जाँच अझै चलेको छैन: कुनै एडमिनलाई सूचना पठाइएको छैन।
books-check-within = अन्तिम जाँच { $time }: सहनसीमाभित्र, सूचना आवश्यक छैन।
books-check-deferred = अन्तिम जाँच { $time }: निर्णय छैन, { $count } अर्डरको कटौती अझै थाहा थिएन; सूचना पठाइएन।
books-check-no-report = अन्तिम जाँच { $time }: निर्णय छैन, प्रदायकको वालेटले जवाफ दिएन; सूचना पठाइएन।
books-check-beyond-alerted = अन्तिम जाँच { $time }: सहनसीमाभन्दा बढी; { $alerted } मा { $admins } एडमिनलाई सूचना पठाइयो।
books-check-beyond-silent = अन्तिम जाँच { $time }: सहनसीमाभन्दा बढी; सूचना पठाइएन।
books-check-unbalanced-alerted = अन्तिम जाँच { $time }: खाता मिल्दैन ({ $wallet }); { $alerted } मा { $admins } एडमिनलाई सूचना पठाइयो।
books-check-unbalanced-silent = अन्तिम जाँच { $time }: खाता मिल्दैन ({ $wallet }); सूचना पठाइएन।
books-check-wallet = { $state ->
        [within] वालेटको फरक सहनसीमाभित्र थियो
        [deferred] वालेटको निर्णय छैन: { $count } अर्डरको कटौती अझै थाहा थिएन
       *[no_report] वालेटको निर्णय छैन: प्रदायकको वालेटले जवाफ दिएन
    }
books-check-no-admins = कुनै एडमिन तोकिएको छैन: सूचना कसैलाई पुग्दैन।
books-raised-none = अहिले कायम सूचना: छैन।
books-raised-title = अहिले कायम सूचना ({ $count }):
books-raised-drift = ⚠️ वालेटमा फरक: खाताअनुसार { $expected }, प्रदायक भन्छ { $reported }; फरक { $drift } (सहनसीमा { $tolerance })।
books-raised-unbalanced = ⚠️ खाता मिल्दैन: { $problems } समस्या (लेखिएका ब्यालेन्सको जोड { $posted }, रोकिएकाको { $pending })।
books-raised-no-verdict-debits = ⚠️ खाता जाँचले { $hours } घण्टादेखि निर्णय दिन सकेको छैन: अन्तिम प्रयासमा { $count } अर्डरको कटौती अझै थाहा थिएन।
books-raised-no-verdict-wallet = ⚠️ खाता जाँचले { $hours } घण्टादेखि निर्णय दिन सकेको छैन: अन्तिम प्रयासमा प्रदायकको वालेटले जवाफ दिएन।
books-raised-low-float = ⚠️ वालेट कम: प्रदायकमा रहेको वालेट अहिले { $balance } छ ({ $threshold } भन्दा कम भए सूचना); कुनै अर्डरको जवाफले त्यो वा बढी नदेखाएसम्म सूचना कायम रहन्छ।
books-raised-sent = { $time } मा { $admins } एडमिनलाई सूचना पठाइयो।
books-raised-unsent = कुनै एडमिनलाई सूचना पठाइएन (कोही तोकिएको छैन)।
status-wallet-inferred = कटौती अर्डरबाट अनुमान गरिएको हो: प्रदायकको अंकसहितको कुनै जवाफ आइपुगेन।
# --- end issue 25 (h-float) ---
# --- issue 29 (h-dashboard): the back office's login link ---
cmd-dashboard = ब्राउजरमा ब्याक अफिस (एडमिन, एजेन्ट)
dashboard-link = तपाईंको ब्याक अफिस लगइन लिंक। यो एक पटक, 10 मिनेटसम्म मात्र चल्छ; अरूलाई नपठाउनुहोस्:
    { $url }
dashboard-denied = ब्याक अफिस एडमिन र एजेन्टका लागि मात्र हो।
dashboard-unavailable = ब्याक अफिसले अहिले लिंक दिन सकेन। एक मिनेटपछि फेरि प्रयास गर्नुहोस्।
# --- end issue 29 (h-dashboard) ---
# --- issue 29 (h-people): a customer the merchant blocked ---
access-blocked = तपाईंको खाता पसलले रोकेको छ, त्यसैले यहाँ अर्डर गर्न वा पैसा थप्न सकिँदैन। पहिले गरेका अर्डरहरू सधैंझैं चल्छन्। कारण जान्न पसललाई सम्पर्क गर्नुहोस्।
# --- end issue 29 (h-people) ---

# --- WhatsApp (issue 28) ---
wa-list-opener = छान्नुहोस्
# --- issue 29 (h-dash29): /dashboard in /help ---
help-dashboard = /dashboard – ब्राउजरमा ब्याक अफिस (अर्डर, ग्राहक, खाता) खोल्ने एक पटकको लिंक, यो बोटले चलाएको भए।
# --- end issue 29 (h-dash29) ---
# --- WhatsApp (issue 28): a Telegram user and a WhatsApp account of one number ---

# --- issue 30 (h-r30): what identifies the account on every receipt and push ---
receipt-line-office = कार्यालय: { $office }
receipt-line-sc = SC नम्बर: { $sc }
receipt-line-holder = ग्राहकको नाम: { $name }
receipt-line-subscriber = ग्राहक: { $name }
# --- end issue 30 (h-r30) ---
# --- issue 30 wording (h-w30) ---
start-choose = के तिर्ने हो छान्नुहोस्, वा /help पठाउनुहोस्।
start-choose-whatsapp = के तिर्ने हो छान्नुहोस्, वा "{ $help }" टाइप गर्नुहोस्।
topup-leave-question = मौज्दातमा रकम थप्ने काम छोड्ने? अहिलेसम्म केही तिरिएको छैन।
topup-flow-cancelled = रद्द गरियो। केही थपिएन, केही तिरिएन। रकम थप्न /addmoney पठाउनुहोस्।
cashin-leave-question = यो नगद जम्मा छोड्ने? अहिलेसम्म केही सारिएको छैन।
cashin-cancelled = नगद जम्मा रद्द गरियो। केही सारिएन: कुनै मौज्दात बदलिएन। फेरि सुरु गर्न /cashin पठाउनुहोस्।
notify-reason-not-sent = अर्डर पूरा हुन सकेन
# --- issue 30 (h-a30): agents and admins ---
reverse-notice-agent = ↩️ { $customer } लाई गरिएको तपाईंको नगद जम्मा { $ref } ({ $amount }) व्यापारीले फिर्ता गर्नुभयो: { $reason }
    { $amount } तपाईंको एजेन्ट मौज्दातमा फर्कियो: { $balance }
cashin-confirm-named = { $phone } ({ $name }) को मौज्दातमा { $amount } थप्ने?
    त्यसपछि तपाईंको मौज्दात: { $after }
    रसिद: { $ref }
agent-statement-title = पछिल्ला कारोबार (नयाँ पहिले, प्रत्येकपछिको मौज्दात):
agent-statement-credit = { $time } · व्यापारीले +{ $amount } जम्मा गर्नुभयो · मौज्दात { $balance }
agent-statement-cash-in = { $time } · { $customer } लाई −{ $amount } नगद जम्मा · मौज्दात { $balance }
agent-statement-reversal-in = { $time } · +{ $amount } फर्कियो: { $customer } लाई नगद जम्मा { $ref } फिर्ता ({ $reason }) · मौज्दात { $balance }
agent-statement-reversal-out = { $time } · −{ $amount } फिर्ता लिइयो: जम्मा { $ref } फिर्ता ({ $reason }) · मौज्दात { $balance }
agent-statement-in = { $time } · +{ $amount } · मौज्दात { $balance }
agent-statement-out = { $time } · −{ $amount } · मौज्दात { $balance }
help-admin-books = /books – व्यापारीको हिसाब: एग्रिगेटर वालेट, ग्राहक र एजेन्टसँग रहेको रकम, र ती मिल्छन् कि मिल्दैनन्
help-admin-topups = /topups – तपाईंको निर्णयका लागि रोकिएका अनलाइन टप-अप
help-admin-status = /status 9841234567 – फोन नम्बरबाट दर्ता भएका ग्राहकका हालका अर्डर, रेफरेन्स नम्बरसहित (रेफरेन्स नम्बरले चाहिँ एउटा अर्डर देखाउँछ)
status-phone-title = { $phone } बाट दर्ता भएका ग्राहकका हालका अर्डर (नयाँ पहिले; /status र रेफरेन्सले एउटा देखाउँछ):
status-phone-line = { $time } · { $ref } · { $operator } · { $number } · { $amount } · { $status }
status-phone-unknown = { $phone } बाट कोही दर्ता छैन, र त्यो रेफरेन्स नम्बरको कुनै अर्डर छैन।
status-phone-empty = { $phone } बाट दर्ता भएका ग्राहकका अहिलेसम्म कुनै अर्डर छैनन्।

# /history: totals, references, months and search (issue 30)
history-total-npr = { $total } (तपाईंको ब्यालेन्सबाट { $npr })
history-total-npr-held = { $total } (तपाईंको ब्यालेन्सबाट { $npr } रोकिएको)
history-total-npr-returned = { $total } ({ $npr } रोकिएको थियो, तपाईंको ब्यालेन्समा फिर्ता गरियो)
history-total-npr-merchant = { $total } ({ $npr })
history-total-returned = { $total } (तपाईंको ब्यालेन्समा फिर्ता गरियो)
# The same refund on a /history line ($total as above).
history-total-refunded = { $total } · { $time } मा { $refund } फिर्ता गरियो (उजुरी { $complaint })
history-total-refunded-part = { $total } · { $time } मा { $refund } फिर्ता गरियो (उजुरी { $complaint }) · अन्तमा { $paid } तिरेको
history-title-month = { $page ->
    [0] { $month } का तपाईंका अर्डरहरू:
   *[other] { $month } का तपाईंका अर्डरहरू (पृष्ठ { $page }):
  }
history-title-number = { $page ->
    [0] { $number } का तपाईंका अर्डरहरू:
   *[other] { $number } का तपाईंका अर्डरहरू (पृष्ठ { $page }):
  }
history-empty-month = { $month } मा तपाईंको कुनै अर्डर छैन।
history-empty-number = { $number } का लागि तपाईंको कुनै अर्डर छैन।
history-month-button = 📅 { $month }
history-all = 📋 सबै अर्डर
history-search = 🔎 नम्बर खोज्नुहोस्
history-search-ask = कुन नम्बर वा खाता खोजूँ? टाइप गर्नुहोस्, जस्तै 9841234567।
history-search-invalid = यो नम्बर वा खाता आईडी होइन। यसका अङ्क (र अक्षर) टाइप गर्नुहोस्, जस्तै 9841234567।
history-invalid = /history पछि महिना (जस्तै 2026-10) वा नम्बर (9841234567) टाइप गर्नुहोस्, वा पछिल्ला अर्डरका लागि केही नलेख्नुहोस्।
# --- issue 30 (h-reminders): reminders ---
cmd-reminders = आउँदा सम्झनाहरू, र तिनलाई बन्द गर्ने
reminders-title = ⏰ एउटा सम्झना
reminder-plan = { $category } · { $number } ({ $operator }): तपाईंको { $amount } को प्लान { $date } मा सकिन्छ।
reminder-bill = { $category } · { $number } ({ $operator }): तपाईंले मासिक बिल प्रायः { $date } मा तिर्नुहुन्छ। पछिल्लो पटक: { $amount }।
reminder-usual = { $category } · { $number } ({ $operator }): तपाईंले प्रायः { $date } तिर रिचार्ज गर्नुहुन्छ। पछिल्लो पटक: { $amount }।
reminders-pay-again = फेरि तिर्न थिच्नुहोस्: केही तिर्नुअघि तपाईंले अर्डर हेरेर पक्का गर्नुहुन्छ। /reminders ले आउँदा सम्झनाहरू देखाउँछ र तिनलाई बन्द गर्छ।
reminder-button = 🔁 फेरि तिर्ने { $number } · { $amount }
reminders-stop-these = 🔕 यी सम्झनाहरू बन्द गर्ने
reminders-stopped-these = 🔕 भयो: यिनका लागि अब सम्झना आउँदैन। /reminders ले अरू देखाउँछ।
reminders-list-title = ⏰ तपाईंका आउँदा सम्झनाहरू (दिनमा बढीमा एउटा सन्देश, 09:00 देखि 20:00 बीच):
reminders-list-item = { $line }
    सम्झना { $when } मा।
reminders-list-empty = अहिले कुनै सम्झना छैन। रिचार्ज वा बिल भुक्तानी सफल भएपछि, प्लान सकिनुअघि वा अर्को तिर्ने बेला आएपछि म सम्झाउँछु।
reminders-list-off = 🔕 सम्झनाहरू बन्द छन्: म कुनै पठाउँदिनँ।
reminders-stop-one = 🔕 { $number } बन्द गर्ने
reminders-stop-all = 🔕 सबै सम्झना बन्द गर्ने
reminders-turn-on = 🔔 सम्झनाहरू फेरि खोल्ने
reminders-one-off-done = 🔕 भयो: त्यसका लागि अब सम्झना आउँदैन।
reminders-all-off-done = 🔕 सबै सम्झनाहरू बन्द भए।
reminders-on-done = 🔔 सम्झनाहरू फेरि खुले।
reminders-list-none = अहिले कुनै सम्झना छैन।
reminders-list-stopped = 🔕 बन्द गरिएका: { $numbers }। तपाईंले सम्झनाहरू फेरि नखोलेसम्म, अर्को भुक्तानीपछि पनि यिनका लागि सम्झना आउँदैन।
reminders-pay-again-typed = फेरि तिर्न /history लेखेर जवाफ दिनुहोस्: केही तिर्नुअघि तपाईंले अर्डर हेरेर पक्का गर्नुहुन्छ। /reminders ले आउँदा सम्झनाहरू देखाउँछ र तिनलाई बन्द गर्छ।
# --- issue 30 (h-deadends): no dead ends ---
idle-start-again = फेरि सुरु गर्न { $command } पठाउनुहोस्।
credit-leave-question = यो रकम थप छोड्ने? अहिलेसम्म केही सारिएको छैन।
credit-cancelled = रकम थप रद्द गरियो। केही सारिएन: कुनै मौज्दात बदलिएन। फेरि सुरु गर्न /credit पठाउनुहोस्।
reverse-leave-question = यो फिर्ता छोड्ने? अहिलेसम्म केही सारिएको छैन।
reverse-cancelled = फिर्ता रद्द गरियो। केही सारिएन: कुनै मौज्दात बदलिएन। फेरि सुरु गर्न /reverse पठाउनुहोस्।
push-try-again = 🔁 फेरि प्रयास गर्ने
push-change-number = ✏️ नम्बर बदल्ने
balance-empty = तपाईंको मौज्दात { $balance } छ: तिर्न अहिले केही छैन, त्यसैले केही सोधिएन। पहिले पैसा थप्नुहोस्, अनि के तिर्ने छान्नुहोस्।
balance-cash-in = एजेन्ट (पसल) ले नगद लिएर तपाईंको दर्ता गरिएको नम्बरमा मौज्दात थपिदिन सक्छन्।
balance-own-agent = अर्डर तपाईंको आफ्नै मौज्दातबाट तिरिन्छ, एजेन्ट फ्लोटबाट होइन (त्यो नगद जम्माका लागि हो)। आफ्नै मौज्दातमा पैसा थप्न व्यापारीलाई भन्नुहोस्।
balance-short-by = तपाईंको मौज्दात { $balance } छ र यो अर्डरको मूल्य { $total } हो: { $shortfall } नपुग।
shortfall-kept = तपाईंका जवाफहरू राखिएका छन्: पैसा थपिएपछि यो अर्डर पुष्टिका लागि फेरि आउँछ।
shortfall-topup-cap = अनलाइन पैसा थप्ने: आज अब { $left } मात्र थप्न सकिन्छ, यो नपुग रकमभन्दा कम। दैनिक सीमा मध्यरातमा फेरि सुरु हुन्छ: { $time } देखि।
shortfall-add = ➕ { $amount } थपेर जारी राख्ने
shortfall-check-again = 🔄 मौज्दात फेरि जाँच्ने
shortfall-pay = { $amount } थप्न "खल्तीबाट तिर्नुहोस्" थिच्नुहोस् र ब्राउजरमा तिर्नुहोस्। थपिएपछि "▶ अर्डर जारी राख्ने" थिच्नुहोस् (यहाँ वा थपिएको सन्देशमुनि): तपाईंको अर्डर नयाँ मूल्यसहित, तपाईंका जवाफहरूसँगै पुष्टिका लागि फेरि आउँछ।
shortfall-continue = ▶ अर्डर जारी राख्ने
shortfall-gone = त्यो अर्डर अब पर्खिरहेको छैन: त्यो गरिसकियो, रद्द भयो वा समय सकियो (तपाईंले गरेका अर्डर /history मा देखिन्छन्)। तपाईंले थपेको र खर्च नगरेको पैसा तपाईंको मौज्दातमै छ (हेर्न: /balance)। फेरि अर्डर गर्न /recharge पठाउनुहोस्।
# --- issue 30 (h-complaints): अर्डरमाथि उजुरी ---
cmd-complain = अर्डरमा समस्या जनाउनुहोस्
cmd-complaints = खुला उजुरीहरू (प्रशासक)
complaint-flow-cancelled = कुनै उजुरी दर्ता भएन। समस्या जनाउन चाहेको बेला /complain पठाउनुहोस्।
complaint-leave-question = यो उजुरी दर्ता गर्न छोड्ने? अहिलेसम्म केही पठाइएको छैन।
complaint-flow-ended = रोकियो: कुनै उजुरी दर्ता भएन वा बदलिएन। यसले कुनै अर्डर वा भुक्तानीमा केही बदल्दैन; समस्या जनाउन चाहेको बेला /complain पठाउनुहोस्।
complaint-not-offered = यो च्याटमा अहिले उजुरी लिइँदैन। कृपया पसललाई सम्पर्क गर्नुहोस्।
complaint-no-orders = तपाईंको अहिलेसम्म कुनै अर्डर छैन, त्यसैले उजुरी गर्ने कुरा केही छैन।
complaint-which-order = कुन अर्डरमा समस्या छ?
complaint-order-choice = { $ref } · { $number } · { $amount }
complaint-unknown-order = तपाईंको { $ref } नम्बरको अर्डर भेटिएन। आफ्ना अर्डरमध्ये छान्न /complain पठाउनुहोस्।
complaint-ask-reason = अर्डर { $order } मा के गडबड भयो?
complaint-reason-not-received = पैसा तिरियो तर पाइएन
complaint-reason-wrong-number = गलत नम्बरमा गयो
complaint-reason-wrong-amount = गलत रकम
complaint-reason-duplicate = दुई पटक पैसा काटियो
complaint-raised = 📝 अर्डर { $order } का लागि उजुरी { $ref } दर्ता भयो: { $reason }।
    हामी { $due } सम्म ({ $days } कार्य दिनभित्र) जवाफ दिनेछौं। हरेक चरणमा तपाईंलाई यहीँ जानकारी दिइनेछ।
complaint-already-open = अर्डर { $order } मा पहिले नै खुला उजुरी छ: { $ref } ({ $status })। हामी { $due } सम्म जवाफ दिनेछौं।
complaint-status-logged = दर्ता भएको
complaint-status-taken = हेरिँदै
complaint-status-resolved = समाधान भएको
complaint-status-rejected = अस्वीकृत
complaint-taken = 🔎 अर्डर { $order } बारे तपाईंको उजुरी { $ref } हेरिँदै छ। हामी { $due } सम्म जवाफ दिनेछौं।
complaint-resolved = ✅ अर्डर { $order } बारे तपाईंको उजुरी { $ref } समाधान भयो: { $text }
complaint-refunded = { $amount } तपाईंको मौज्दातमा फिर्ता गरियो। फिर्तापछिको मौज्दात: { $balance }
complaint-refunded-balance-unknown = { $amount } तपाईंको मौज्दातमा फिर्ता गरियो।
complaint-rejected = ❌ अर्डर { $order } बारे तपाईंको उजुरी { $ref } स्वीकार भएन: { $why }
complaint-report-button = ⚠️ समस्या जनाउनुहोस्
complaint-denied = यो आदेश प्रशासकका लागि मात्र हो।
complaints-none = कुनै उजुरी खुला छैन।
complaints-more = यी सबैभन्दा छिटो म्याद पुग्ने { $shown } वटा हुन्; अरू { $more } वटा खुला छन्। ब्याक अफिसको उजुरी पानाले तिनलाई देखाउँछ (100 सम्म); यहाँ, यिनको जवाफ दिनुहोस् र अर्काका लागि फेरि /complaints पठाउनुहोस्।
complaints-line = { $ref } · अर्डर { $order } · { $reason } ({ $code }) · ग्राहक { $user }
    { $status } · { $age } अघि दर्ता · म्याद { $due }
complaints-overdue = ⏰ म्याद { $late } ले नाघ्यो
complaints-due-in = { $left } बाँकी
complaint-take-button = लिनुहोस्
complaint-resolve-button = समाधान
complaint-reject-button = अस्वीकार
complaint-taken-by-you = तपाईंले उजुरी { $ref } लिनुभयो; ग्राहकलाई सूचना पठाइँदै छ।
complaint-closed-already = उजुरी { $ref } पहिले नै { $status } छ: { $text }
complaint-already-taken = उजुरी { $ref } पहिले नै हेरिँदै छ।
complaint-unknown = { $ref } नम्बरको कुनै उजुरी छैन।
complaint-admin-resolve-how = उजुरी { $ref }, अर्डर { $order } ({ $reason }): कसरी समाधान गर्ने?
complaint-admin-refund-button = { $amount } फिर्ता गरी समाधान
complaint-admin-no-refund-button = फिर्ता नगरी समाधान
complaint-admin-no-refund-why = फिर्ता सम्भव छैन: { $why }।
complaint-admin-reversed = ⚠️ एग्रिगेटरले अर्डर { $order } का लागि { $time } मा "{ $word }" भन्यो: सफल भएपछि उसले रिचार्ज उल्टायो। रकम फिर्ता दिनुअघि ग्राहकलाई अर्को तरिकाले (/credit) पहिले नै रकम फिर्ता दिइएको छैन भनी जाँच्नुहोस्।
complaint-refund-not-paid = अर्डर ग्राहकको मौज्दातबाट तिरिएको थिएन
complaint-refund-failed = अर्डर असफल भयो र त्यसको पैसा पहिले नै मौज्दातमा फर्कियो
complaint-refund-not-final = अर्डर अझै टुंगिएको छैन
complaint-refund-already = यही अर्डरको अर्को उजुरीमा पहिले नै फिर्ता भइसक्यो
complaint-refund-too-much = त्यो ग्राहकले तिरेभन्दा बढी हो
complaint-refund-books = हिसाबले फिर्ता अस्वीकार गर्‍यो
complaint-admin-ask-done = के गरियो? ग्राहकले यो पढ्छन् (3 देखि 200 अक्षर)।
complaint-admin-ask-why = किन अस्वीकार गरियो? ग्राहकले यो पढ्छन् (3 देखि 200 अक्षर)।
complaint-admin-bad-text = कृपया 3 देखि 200 अक्षर लेख्नुहोस्।
complaint-admin-confirm-resolve = उजुरी { $ref } यसरी समाधान गर्ने: { $text }
complaint-admin-confirm-refund = ग्राहकको मौज्दातमा { $amount } फिर्ता गरी उजुरी { $ref } यसरी समाधान गर्ने: { $text }
complaint-admin-confirm-reject = उजुरी { $ref } अस्वीकार गर्ने, कारण: { $text }
complaint-admin-resolved = उजुरी { $ref } समाधान भयो; ग्राहकलाई सूचना पठाइँदै छ।
complaint-admin-refunded = उजुरी { $ref } { $amount } फिर्ता (ट्रान्सफर { $transfer }) सहित समाधान भयो; ग्राहकलाई सूचना पठाइँदै छ।
complaint-admin-rejected = उजुरी { $ref } अस्वीकार भयो; ग्राहकलाई सूचना पठाइँदै छ।
complaint-admin-refused = केही गरिएन: { $why }।
complaints-new-admin = 📝 अर्डर { $order } मा नयाँ उजुरी { $ref }: { $reason } ({ $code }), ग्राहक { $user }। म्याद { $due }। /complaints
movement-refund = { $time } · उजुरीमा +{ $amount } फिर्ता
help-complain = /complain – अर्डरमा समस्या जनाउनुहोस् (पैसा तिरियो तर पाइएन, गलत नम्बर वा रकम, दुई पटक काटियो); /complain र अर्डरको रेफरेन्स नम्बर, वा रसिदमुनिको ⚠️ समस्या जनाउनुहोस्
help-admin-complaints = /complaints – म्यादसहित खुला उजुरीहरू: लिनुहोस्, समाधान (फिर्तासहित) वा अस्वीकार गर्नुहोस्
receipt-share = 📄 रसिद सेयर
receipt-doc-caption = अर्डर { $ref } को रसिद: राख्नुहोस् वा अरूलाई पठाउनुहोस्।
receipt-doc-footer = सन्दर्भ नम्बर राख्नुहोस्: /status र सन्दर्भ नम्बर पठाउँदा च्याटमा यो अर्डर देखिन्छ।
receipt-share-not-final = यो अर्डर अझै पूरा भएको छैन: अपरेटरले जवाफ दिएपछि रसिद सेयर गर्न सकिन्छ।
cmd-statement = मासिक विवरण (पीडीएफ)
statement-choose = कुन महिनाको विवरण चाहिन्छ? यो पीडीएफमा आउँछ, राख्न वा अरूलाई पठाउन सकिन्छ।
statement-too-long = { $month } को विवरणमा एउटै कागजातमा पठाउन धेरै लाइन छन्। कृपया पसलसँग माग्नुहोस्।
statement-doc-caption = { $month } को तपाईंको विवरण।
statement-doc-caption-agent = { $month } को तपाईंको आफ्नै मौज्दातको विवरण (तपाईंका आफ्नै अर्डर तिर्ने मौज्दात)। तपाईंको एजेन्ट मौज्दात र त्यसको हिसाब: /balance, र ब्याक अफिस (/dashboard)।
statement-doc-title = { $month } को विवरण
statement-doc-holder = खाता: { $holder }
statement-doc-opening = सुरुमा खर्च गर्न मिल्ने: { $balance }
statement-doc-opening-held = सुरुमा अपरेटरकहाँ रहेका अर्डरका लागि रोकिएको: { $held }
statement-doc-in-out = आएको रकम: { $in } · गएको रकम: { $out }
statement-doc-closing = अन्तमा खर्च गर्न मिल्ने: { $balance }
statement-doc-held = अन्तमा अपरेटरकहाँ रहेका अर्डरका लागि रोकिएको: { $held }
statement-doc-footer = सबै समय नेपाल समयअनुसार छन्। हरेक लाइनले त्यसपछि खर्च गर्न मिल्ने रकम देखाउँछ। अर्डर तपाईंले पक्का गरेको बेला देखिन्छ (त्यहीबेलादेखि त्यसको रकम रोकिन्छ); असफल अर्डरको रकम फिर्ता आएको बेला फेरि देखिन्छ।
statement-col-date = मिति
statement-col-what = विवरण
statement-col-ref = सन्दर्भ
statement-col-change = परिवर्तन
statement-col-balance = खर्च गर्न मिल्ने
statement-kind-order = अर्डर
statement-kind-order-failed = अर्डर असफल: रकम फिर्ता
statement-kind-credit = जम्मा
statement-kind-demo-credit = डेमो जम्मा
statement-kind-cash-in = नगद जम्मा
statement-kind-topup = अनलाइन टप-अप
statement-kind-adjustment = सच्याइ
statement-kind-refund = फिर्ता
statement-kind-reversal = उल्टाइएको
statement-kind-other = अन्य
# --- issue 30 (h-shortcuts): shortcuts ---
bot-description = नेपाल र भारतमा मोबाइल रिचार्ज र बिल भुक्तानी: NTC टपअप, डाटा प्याक, टिभी, इन्टरनेट, ल्यान्डलाइन, खानेपानी र बिजुली। /start पठाउनुहोस्, वा फोन नम्बर वा ग्राहक आईडी मात्र पठाउनुहोस्, म त्यहीँबाट सुरु गर्छु।
bot-short-description = नेपाल र भारतका लागि मोबाइल रिचार्ज र बिल भुक्तानी। सुरु गर्न नम्बर पठाउनुहोस्।
cmd-myqr = मेरो पसलको क्यूआर कोड (एजेन्ट)
shortcut-which = { $number } के हो? के तिर्ने छान्नुहोस्:
shortcut-shop-register = तपाईंले एउटा पसलको क्यूआर कोड स्क्यान गर्नुभयो। आफ्नो फोन नम्बरले दर्ता गर्नुहोस् (तलको बटन), अनि तपाईं त्यो पसलको ग्राहक बन्नुहुन्छ: पसलले नगद लिएर तपाईंको मौज्दातमा रकम थप्न सक्छ।
shortcut-shop-joined = ✅ तपाईं अब यो पसलको ग्राहक हुनुभयो। /recharge पठाउनुहोस्, वा रिचार्ज गर्न फोन नम्बर मात्र पठाउनुहोस्।
shortcut-shop-again = तपाईं पहिल्यै दर्ता हुनुहुन्छ। /recharge पठाउनुहोस्, वा रिचार्ज गर्न फोन नम्बर मात्र पठाउनुहोस्।
shortcut-shop-agent-told = 🆕 तपाईंको पसलको क्यूआर कोडबाट नयाँ ग्राहक: { $name }, { $phone }। /cashin ले उहाँको मौज्दातमा रकम थप्न सक्नुहुन्छ।
shortcut-qr-caption = तपाईंको पसलको क्यूआर कोड। छापेर ग्राहकले पैसा तिर्ने ठाउँमा राख्नुहोस्: स्क्यान गर्दा यो बोट खुल्छ, र दर्ता गर्ने जो कोही तपाईंको ग्राहक बन्छ (तपाईंलाई सन्देश आउँछ)।
    लिङ्क: { $link }
    WhatsApp मा ग्राहकले पठाउने: { $code }
shortcut-qr-whatsapp = WhatsApp मा यहाँ क्यूआर तस्बिर पठाउन मिल्दैन: त्यसका लागि टेलिग्राम मा /myqr पठाउनुहोस्, वा लिङ्कलाई क्यूआर कोडका रूपमा छाप्नुहोस्।
shortcut-qr-agents-only = पसलको क्यूआर कोड एजेन्टहरूको मात्र हुन्छ।
# /help: the statement, reminders and the shop QR code (issue 30)
help-statement = /statement – महिनाको विवरण पीडीएफमा (सुरु र अन्तिम मौज्दात, हरेक कारोबार)
help-reminders = /reminders – म के सम्झाउँछु (सकिन लागेका प्लान, मासिक बिल), र सम्झना बन्द गर्ने
help-agent-shop = /myqr – तपाईंको पसलको क्यूआर कोड: यसलाई स्क्यान गर्ने ग्राहक तपाईंको पसलमा दर्ता हुन्छन्
reminders-not-offered = यो पसलले सम्झना पठाउँदैन।
# --- h-chatrefund: a partial refund decided in the chat (/topups) ---
topup-partial-none-waiting = कुनै टप-अप रोकिएको छैन, न त आंशिक फिर्ताको रकम पर्खिरहेको छ।
topup-partial-said-part = { $gateway } भन्छ: आंशिक रूपमा फिर्ता, रकम बिना।
topup-partial-said-maybe-whole = { $gateway } भन्छ: पूरा भयो र फिर्ता भयो, रकम बिना (पूरै वा केही भाग)।
topup-partial-line-credited = आंशिक फिर्ताको रकम हाल्नुपर्ने: टप-अप { $pid } ({ $gateway }), ग्राहक { $who }। तिरेको { $paid }; जम्मा गरिएको { $credited }। { $said }
topup-partial-line-uncredited = आंशिक फिर्ताको रकम हाल्नुपर्ने: टप-अप { $pid } ({ $gateway }), ग्राहक { $who }। तिरेको { $paid }; अहिलेसम्म केही जम्मा गरिएको छैन। { $said }
topup-partial-enter-button = फिर्ता भएको रकम हाल्नुहोस्
topup-partial-reject-button = अस्वीकार (केही जम्मा नगर्ने)
topup-partial-ask-amount = टप-अप { $pid } को कति रकम { $gateway } ले फिर्ता गर्‍यो? यसको मर्चेन्ट ड्यासबोर्डमा देखिन्छ। { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्।
topup-partial-confirm-take = { $gateway } ले टप-अप { $pid } को { $returned } फिर्ता गर्‍यो: { $who } को ब्यालेन्सबाट { $returned } फिर्ता लिइनेछ (अहिले उपलब्ध { $available }; नपुगेको भाग लिइँदैन)। ग्राहकलाई जानकारी दिइनेछ।
topup-partial-confirm-rest = { $gateway } ले टप-अप { $pid } मा तिरेको { $paid } मध्ये { $returned } फिर्ता गर्‍यो: बाँकी { $rest } { $who } को ब्यालेन्समा सीमाभित्र जम्मा गरिनेछ। ग्राहकलाई जानकारी दिइनेछ।
topup-partial-confirm-all = { $gateway } ले टप-अप { $pid } को पूरै { $paid } फिर्ता गर्‍यो: { $who } लाई केही जम्मा गरिने छैन। ग्राहकलाई जानकारी दिइनेछ।
topup-partial-confirm-reject = टप-अप { $pid } अस्वीकार: { $who } लाई केही जम्मा गरिने छैन; { $paid } मध्ये खल्ती ले राखेको भाग यसको मर्चेन्ट ड्यासबोर्डबाट फिर्ता गर्नुहोस्। ग्राहकलाई जानकारी दिइनेछ।
topup-partial-took = { $pid }: { $gateway } ले फिर्ता गरेको { $returned } मध्ये { $reversed } { $who } को ब्यालेन्सबाट फिर्ता लिइयो। ग्राहकलाई जानकारी दिइयो।
topup-partial-short = { $pid }: { $gateway } ले फिर्ता गरेको { $returned } मध्ये { $reversed } फिर्ता लिइयो; ब्यालेन्समा { $short } नपुग्यो: हातैले असुल गर्नुहोस्। ग्राहकलाई जानकारी दिइयो।
topup-partial-credited = { $pid }: { $gateway } ले फिर्ता गरेको { $returned } पछिको बाँकी { $credited } { $who } लाई जम्मा गरियो। ग्राहकलाई जानकारी दिइयो।
topup-partial-none = { $pid }: पूरै फिर्ता भयो, केही जम्मा गरिएन। ग्राहकलाई जानकारी दिइयो।
topup-partial-rejected = { $pid }: अस्वीकार गरियो, केही जम्मा गरिएन। खल्ती ले राखेको भाग यसको मर्चेन्ट ड्यासबोर्डबाट फिर्ता गर्नुहोस्। ग्राहकलाई जानकारी दिइयो।
topup-partial-refused-unknown = यस्तो टप-अप छैन: { $pid }।
topup-partial-refused-not-partial = { $pid } को निर्णय भइसकेको छ (अर्को एडमिन वा अघिल्लो ट्यापले): केही गरिएन।
topup-partial-refused-amount = { $pid }: त्यो रकम मान्य छैन: केही गरिएन।
topup-partial-refused-ledger-refused = { $pid }: हिसाबले अस्वीकार गर्‍यो (सूचना हेर्नुहोस्): केही लेखिएन।
topup-partial-refused-above-cap = { $pid }: बाँकी रकम एक टप-अपको अधिकतम सीमा वा आजको बाँकी दैनिक सीमाभन्दा बढी छ: केही जम्मा गरिएन।
topup-partial-refused-credited = { $pid } जम्मा भइसकेको छ: फिर्ता भएको रकम हालेर मात्र टुङ्गिन्छ, अस्वीकारले होइन।
topup-partial-refused-gateway-disagrees = { $pid }: खल्ती ले यो भुक्तानी त्यो रकमका लागि आंशिक फिर्ता भनेर अब देखाउँदैन: केही जम्मा गरिएन।
topup-partial-refused-gateway-unavailable = { $pid }: खल्ती ले जवाफ दिएन: केही जम्मा गरिएन। पछि /topups बाट फेरि प्रयास गर्नुहोस्।
topup-partial-cancelled = केही निर्णय गरिएन। पछि निर्णय गर्न /topups पठाउनुहोस्।
topup-partial-leave-question = यो आंशिक फिर्ताको निर्णय रोक्ने? अहिलेसम्म केही निर्णय गरिएको छैन।
topup-partial-flow-ended = रोकियो: केही निर्णय, फिर्ता वा जम्मा गरिएन; टप-अप जस्तो थियो त्यस्तै पर्खिरहेको छ। पछि निर्णय गर्न /topups पठाउनुहोस्।
# --- end h-chatrefund ---
# --- h-settle: an admin settles an order the aggregator never ended ---
cmd-settle = अन्तिम जवाफ नआएको अर्डर टुंगो लगाउनुहोस् (एडमिन)
settle-denied = /settle एडमिनका लागि मात्र हो।
settle-ask-ref = कुन अर्डर टुंगो लगाउने? यसको सन्दर्भ नम्बर लेख्नुहोस्।
settle-ask-outcome = यो अर्डरको प्रदायकबाट अन्तिम जवाफ आएको छैन। कसरी टुंगो लगाउने? केही लेख्नुअघि प्रदायकलाई फेरि सोधिन्छ।
settle-as-failed = ❌ असफल: पैसा ग्राहकलाई फिर्ता
settle-as-success = ✅ सफल: रिचार्ज पुग्यो
settle-ask-reason = किन? केही शब्द (जस्तै अपरेटर वा प्रदायकको सहयोग टोलीले के भन्यो); यी अर्डरमा राखिन्छन्।
settle-confirm-failed = अर्डर { $ref } असफल भनी टुंगो लगाउने? ग्राहकबाट यसको पैसा लिइँदैन (प्रिपेड ग्राहकको रोकिएको पैसा ब्यालेन्समा फिर्ता जान्छ) र ग्राहकलाई भनिन्छ। कारण: { $reason }
settle-confirm-success = अर्डर { $ref } सफल भनी टुंगो लगाउने? ग्राहकबाट यसको पैसा लिइन्छ (प्रिपेड ग्राहकको रोकिएको पैसा); प्रदायकको कटौती उसको जवाफबाट, नत्र अर्डरबाट अनुमान गरिन्छ। कारण: { $reason }
settle-done-failed = ✅ अर्डर { $ref } असफल भनी टुंगो लगाइयो: ग्राहकबाट यसको पैसा लिइएन (रोकिएको पैसा ब्यालेन्समा फिर्ता भयो) र ग्राहकलाई भनियो। प्रदायकले भन्यो: { $said }।
settle-done-success = ✅ अर्डर { $ref } सफल भनी टुंगो लगाइयो: ग्राहकबाट यसको पैसा लिइयो र ग्राहकलाई भनियो। प्रदायकले भन्यो: { $said }।
settle-aggregator-final = प्रदायकले भर्खरै अर्डर { $ref } को जवाफ दियो: { $status }। त्यही जवाफ लागू भयो; हातले केही टुंगो लगाइएन।
settle-final = अर्डर { $ref } पहिले नै अन्तिम छ ({ $status }): टुंगो लगाउनु पर्दैन।
settle-not-sent = अर्डर { $ref } प्रदायकलाई कहिल्यै पठाइएन: बोटले आफैँ असफल गर्छ।
settle-too-young = अर्डर { $ref } हातले टुंगो लगाउन धेरै नयाँ छ: प्रदायकले अझै जवाफ दिन सक्छ। { $time } देखि टुंगो लगाउन सकिन्छ।
settle-cancelled = टुंगो लगाउने काम रद्द भयो। केही बदलिएन। फेरि सुरु गर्न /settle पठाउनुहोस्।
settle-leave-question = टुंगो लगाउने काम छोड्ने? अहिलेसम्म केही बदलिएको छैन।
settle-flow-ended = रोकियो: कुनै अर्डरको टुंगो लगाइएन र केही बदलिएन। फेरि सुरु गर्न /settle पठाउनुहोस्।
status-settled = एडमिन { $admin } ले { $time } मा टुंगो लगाए: { $reason } (प्रदायकले भनेको: { $said })
status-settled-contradicted = ⚠️ प्रदायकले पछि उल्टो भन्यो: कुनै पैसा सरेन; प्रदायकसँग जाँच्नुहोस्; /books ले फरक देखाउँछ।
status-settled-confirmed = ✅ { $time } मा प्रदायकको आफ्नै अन्तिम जवाफले पनि त्यही भन्यो: मिलान कायम छ।
status-settled-confirmed-earlier = ✅ { $time } मा प्रदायकको आफ्नै अन्तिम जवाफले पनि त्यही भनेको थियो।
status-contradicted = ⚠️ { $time } मा एग्रिगेटरले { $said } भन्यो; अर्डर { $status } नै रहन्छ। कुनै पैसा सरेन: एग्रिगेटरसँग जाँच्नुहोस्; सच्याउन एडमिन चाहिन्छ।
status-settle-hint = धेरै समयसम्म प्रदायकबाट अन्तिम जवाफ आएन: /settle { $ref }
notify-reason-settled = प्रदायकले रिचार्ज कहिल्यै पुष्टि गरेन, त्यसैले अर्डर असफल भनी बन्द गरियो
help-admin-settle = /settle – प्रदायकले घण्टौँसम्म नटुंग्याएको अर्डर कारणसहित टुंगो लगाउनुहोस् (असफल: पैसा ग्राहकलाई फिर्ता; वा सफल); एकभन्दा बढी एडमिन भए अर्को एडमिनले स्वीकृत गर्छ।
settle-confirm-approval = अर्को एडमिनले स्वीकृत गर्नुपर्छ: त्यसअघि केही सर्दैन।
settle-proposed = 🕓 प्रस्ताव गरियो: अर्डर { $ref } { $outcome } भनी। अर्को एडमिनले स्वीकृत नगरेसम्म केही सर्दैन; उहाँहरूलाई भनियो। प्रदायकले भन्यो: { $said }।
settle-proposal = एडमिन { $admin } ले अर्डर { $ref } { $outcome } भनी टुंगो लगाउन प्रस्ताव गर्नुभयो: { $reason }। स्वीकृत गर्ने? केही लेख्नुअघि प्रदायकलाई फेरि सोधिन्छ।
settle-approve = ✅ स्वीकृत
settle-decline = ✖ अस्वीकार
settle-own-proposal = अर्डर { $ref } { $outcome } भनी टुंगो लगाउने तपाईंको प्रस्ताव ({ $reason }) अर्को एडमिनको स्वीकृति पर्खिरहेको छ।
settle-withdraw = मेरो प्रस्ताव फिर्ता लिनुहोस्
settle-withdrawn = अर्डर { $ref } टुंगो लगाउने प्रस्ताव फिर्ता भयो। केही सरेन।
settle-other-proposal = अर्डर { $ref } मा अर्को प्रस्ताव पर्खिरहेको छ: हेर्न /settle { $ref } पठाउनुहोस्।
status-settled-approved = एडमिन { $admin } ले स्वीकृत गर्नुभयो
status-settle-proposed = एडमिन { $admin } ले यसलाई { $outcome } भनी टुंगो लगाउन प्रस्ताव गर्नुभयो; अर्को एडमिनले स्वीकृत वा अस्वीकार गर्छ: /settle { $ref }
settle-no-proposal = अर्डर { $ref } टुंगो लगाउने प्रस्ताव यसबीच फिर्ता वा अस्वीकार भयो: केही टुंगो लगाइएन।

# --- s21 (h-link): one account on two channels, joined only with a code sent to the other chat ---
register-linked = यो च्याटले तपाईंको WhatsApp खाता ({ $phone }) चलाउँछ: त्यसको नम्बर जस्ताको तस्तै रहन्छ। यहाँ अर्को नम्बर चलाउन पहिले /unlink पठाउनुहोस्, अनि फेरि आफ्नो सम्पर्क सेयर गर्नुहोस्।
register-linked-released = यो च्याटले तपाईंको WhatsApp खाता चलाउँछ, जसको नम्बर अब त्यसको आफ्नो छैन (सपोर्टले छुटायो: नम्बरको नयाँ धारक छ)। खातामा त्यसको पैसा र इतिहास रहन्छ, जुन तपाईं यहाँ चलाउनुहुन्छ, तर अहिले त्यसको कुनै नम्बर छैन र यहाँबाट थप्न मिल्दैन। त्यसका सन्देशहरू (अर्डरको नतिजा, सूचनाहरू) अब WhatsApp वा यो च्याटमा आउँदैनन्: अर्डर कसरी सकियो हेर्न /history पठाउनुहोस्।
link-code-sent = { $phone } को { $channel } मा खाता छ। त्यही खाता यहाँ चलाउन हामीले त्यो { $channel } च्याटमा 6 अङ्कको कोड पठायौं। यहाँ यसरी टाइप गर्नुहोस्: { $command } 123456 (10 मिनेटसम्म चल्छ)। कोडबिना केही जोडिँदैन।
link-code =
    यो खाता { $channel } बाट पनि चलाउने तपाईंको कोड: { $code }
    त्यहाँ यसरी टाइप गर्नुहोस्: { $command } { $code }
    यो 10 मिनेटसम्म चल्छ। तपाईंले मागेको होइन भने कसैलाई नदिनुहोस्: यसबिना केही बदलिँदैन।
    { $channel } मा माग्ने: { $asker }। त्यो तपाईं होइन भने यो सन्देश बेवास्ता गर्नुहोस्।
link-done = ✅ जोडियो: यो च्याटले अब { $phone } को खाता चलाउँछ (त्यसको ब्यालेन्स, इतिहास र सेभ गरिएका नम्बरहरू)। रोक्न { $command } पठाउनुहोस्।
link-wrong = त्यो कोड मिलेन। बाँकी प्रयास: { $left }।
link-too-many-tries = धेरै पटक गलत कोड: त्यो कोड अब चल्दैन, र केही जोडिएन।
link-no-offer = यो च्याटमा टाइप गर्न कुनै कोड पर्खिरहेको छैन: त्यसको म्याद सकियो वा प्रयोग भइसक्यो, वा त्यो अर्को च्याटका लागि थियो (कोड त्यसलाई माग्ने च्याटमा टाइप गरिन्छ, आएको च्याटमा होइन)। केही जोडिएन।
link-number-moved = त्यो कोड सही थियो, तर { $phone } अब त्यो कोड पठाइएको खाताको नम्बर होइन, त्यसैले केही जोडिएन।
link-number-released = त्यो कोड सही थियो, तर { $phone } त्यो कोड पठाइएको WhatsApp खाताबाट छुटाइएको छ: हाम्रो सहयोग टोलीले त्यो नम्बर अब अर्कै व्यक्तिसँग भएको पायो, त्यसैले त्यहाँ पठाइएको कोडले खाता तपाईंको हो भनेर अब देखाउँदैन। केही जोडिएन। खातामा यसको पैसा र इतिहास रहन्छ; यो तपाईंको हो भने हाम्रो सहयोग टोली वा तपाईंले रिचार्ज गर्ने पसलमा सोध्नुहोस्।
link-already = यो च्याटले पहिले नै { $phone } को खाता चलाउँछ। रोक्न { $command } पठाउनुहोस्।
link-already-other = यो च्याटले पहिले नै अर्को खाता चलाउँछ। रोक्न { $command } पठाउनुहोस्।
link-ask-again-telegram = नयाँ कोडका लागि फेरि आफ्नो सम्पर्क सेयर गर्नुहोस्।
link-ask-again-whatsapp = नयाँ कोडका लागि { $link } टाइप गर्नुहोस्।
link-too-many-codes = पछिल्लो एक घण्टामा यो च्याटका लागि धेरै कोड पठाइए। कृपया पछि प्रयास गर्नुहोस्; केही जोडिएन।
link-refused-staff = एजेन्ट वा एडमिनको च्याट अर्को खातासँग जोडिँदैन: हरेक च्याटले आफ्नै भूमिका र फ्लोट राख्छ। केही बदलिएको छैन।
link-refused-own = यो च्याटको आफ्नै खाता छ (नम्बर वा पैसा), त्यसैले { $phone } को खातासँग जोड्न मिल्दैन। केही बदलिएको छैन।
link-held =
    { $phone } हामीकहाँ Telegram मा दर्ता छ।
    त्यो Telegram खाता तपाईंको हो? { $link } टाइप गर्नुहोस्: हामी त्यो Telegram च्याटमा कोड पठाउँछौं, र त्यही खाता चलाउन तपाईं यहाँ त्यो कोड टाइप गर्नुहुन्छ।
    तपाईंको होइन (यो नम्बर पहिले अरूको थियो)? { $new } टाइप गर्नुहोस्: यो नम्बरले यहाँ नयाँ, खाली खाता पाउँछ, र Telegram खाताले आफ्नै ब्यालेन्स राख्छ।
link-new-done = ✅ { $phone } को अब यहाँ आफ्नै खाता छ। मेनुका लागि { $hi } टाइप गर्नुहोस्।
link-how = Telegram र WhatsApp बाट एउटै खाता चलाउन: Telegram मा आफ्नो सम्पर्क सेयर गर्नुहोस् (WhatsApp मा चलाउने नम्बर), वा Telegram मा दर्ता भएको नम्बरको WhatsApp च्याटमा { $link } टाइप गर्नुहोस्। अर्को च्याटमा कोड पठाइन्छ।
unlink-done = यो च्याटले अब अर्को खाता चलाउँदैन: फेरि आफ्नै भयो (अर्को खाताले आफ्नो ब्यालेन्स र इतिहास राख्छ)।
unlink-none = यो च्याट अर्को खातासँग जोडिएको छैन।
link-code-unlink = जोडिएपछि, तपाईं जुनसुकै बेला यहाँबाट हटाउन सक्नुहुन्छ: "{ $unlink }" पठाउनुहोस्।
unlink-owner-list = यी Telegram च्याटहरूले तपाईंको खाता (ब्यालेन्स, इतिहास र सेभ गरिएका नम्बरहरू) चलाउँछन्:
    { $list }
    जोड हटाउन एउटा छान्नुहोस्: त्यो आफ्नै खातामा फर्किन्छ, र तपाईंको ब्यालेन्स यहीँ रहन्छ।
unlink-owner-end = हटाउनुहोस् { $n }: { $name }
unlink-owner-keep = राख्नुहोस्
unlink-owner-chat = एउटा Telegram च्याट
unlink-owner-kept = केही बदलिएन: ती च्याटहरूले अझै तपाईंको खाता चलाउँछन्।
unlink-owner-done = हटाइयो: { $name } ले अब तपाईंको खाता चलाउँदैन। तपाईंको ब्यालेन्स र इतिहास यहीँ रहन्छ।
unlink-owner-gone = त्यो च्याटले अब तपाईंको खाता चलाउँदैन: हटाउने केही छैन। सूची फेरि हेर्न "{ $unlink }" पठाउनुहोस्।
unlink-by-owner = { $phone } को WhatsApp खाताले यो च्याटको जोड हटायो: यो च्याटले फेरि आफ्नै खाता चलाउँछ (त्यो खाताले आफ्नो ब्यालेन्स र इतिहास राख्छ, र यहाँ त्यससँग सुरु गरिएको काम रोकियो)। फेरि जोड्न { $link } पठाउनुहोस्।
link-not-sent = त्यो { $channel } च्याटमा कोड पठाउन सकिएन (त्यसले यो बट ब्लक गरेको हुन सक्छ)। केही जोडिएन; कृपया पछि फेरि प्रयास गर्नुहोस्।
link-write-first = { $phone } को खाता WhatsApp मा छ, र हामी त्यसको कोड पछिल्लो 24 घण्टाभित्र हामीलाई लेखेको WhatsApp च्याटमा मात्र पठाउँछौं। कोड पठाइएन र केही जोडिएन। { $phone } भएको फोनबाट पहिले हाम्रो WhatsApp नम्बरमा "{ $hi }" लेख्नुहोस्, अनि यहाँ फेरि माग्नुहोस्।
link-refused-target = { $phone } को खाता यो च्याटसँग जोड्न मिल्दैन। केही बदलिएको छैन।
link-new-confirm = यसले { $phone } लाई यहाँ नयाँ, खाली खाता दिन्छ, र यो नम्बर दर्ता गर्ने Telegram खाताबाट हटाउँछ (त्यो खाताले आफ्नो ब्यालेन्स राख्छ, र उसलाई खबर गरिन्छ)। गर्न { $confirm } टाइप गर्नुहोस्। त्यो Telegram खाता तपाईंकै हो भने त्यसको सट्टा { $link } टाइप गर्नुहोस्।
link-new-no-id = कुनै खाता खोलिएन: यो सन्देशले कुन WhatsApp प्रयोगकर्ताले पठायो भनेर बताएन, र यहाँको नयाँ खाता त्यही प्रयोगकर्ताको हुन्छ। केही परिवर्तन भएन: { $phone } त्यसलाई दर्ता गर्ने Telegram खातामै रहन्छ। अद्यावधिक WhatsApp बाट { $confirm } लेख्नुहोस्, वा त्यो Telegram खाता तपाईंको हो भने { $link } लेख्नुहोस्।
link-new-moved = केही परिवर्तन भएन र कुनै खाता खोलिएन: यसबीचमा अर्को खाताले { $phone } दर्ता गर्‍यो, र त्यो त्यसैसँग रहन्छ। अब के गर्न सकिन्छ हेर्न { $hi } टाइप गर्नुहोस्।
link-new-blocked = कुनै खाता खोलिएन: { $phone } दर्ता गर्ने खाता पसलले रोकेको छ, त्यसैले यो नम्बरले यहाँ नयाँ खाता पाउँदैन। केही बदलिएन। कृपया यही फोन लिएर पसलमा गई मिलाउनुहोस्।
link-number-taken = { $phone } अहिले त्यो नम्बर चलाउने व्यक्तिले WhatsApp मा दर्ता गर्नुभयो, त्यसैले यो अब यो खाताको नम्बर होइन: अबदेखि { $phone } मा हालिएको पैसा त्यो WhatsApp खातामा जान्छ। तपाईंको ब्यालेन्स र इतिहास यहीँ रहन्छ र तपाईं तिनलाई चलाउन सक्नुहुन्छ। अहिले चलाउने नम्बर थप्न { $register } पठाउनुहोस्।
# --- end s21 (h-link) ---
# --- h-cashin: a booking whose outcome is not known ---
cash-unsure = ⚠️ रसिद { $ref } हिसाबमा चढ्यो कि चढेन थाहा भएन: हिसाबले पूरा जवाफ दिएन। यो पहिले नै चढिसकेको हुन सक्छ। उही पैसाका लागि फेरि { $command } नपठाउनुहोस्: जाँच्नुहोस् थिच्नुहोस्: यसले उही रसिद हिसाबमा खोज्छ, र चढेको रहेनछ भने अहिले चढाउँछ (दुई पटक कहिल्यै होइन)।
cash-unsure-check = 🔁 जाँच्नुहोस्
cash-unsure-cancelled = रोकियो। माथिको रसिद पहिले नै हिसाबमा चढिसकेको हुन सक्छ: फेरि गर्नुअघि हेर्नुहोस्। /balance ले एजेन्टको आजका नगद जम्मा देखाउँछ; ब्याक अफिसमा सबै नगद जम्मा र क्रेडिट छन्।
cash-unsure-cancelled-admin = रोकियो। माथिको रसिद पहिले नै हिसाबमा चढिसकेको हुन सक्छ: फेरि गर्नुअघि ब्याक अफिसमा हेर्नुहोस् (नगद जम्मामा सबै नगद जम्मा, क्रेडिट र फिर्ता छन्)।
cash-unsure-leave-question = छोड्ने? माथिको रसिद पहिले नै हिसाबमा चढिसकेको हुन सक्छ: फेरि गर्नुअघि हेर्नुहोस्।
cash-not-booked = ❌ चढेन: हिसाबले रसिद { $ref } लिनुअघि नै अस्वीकार गर्‍यो, त्यसैले केही पनि सरेन। फेरि जाँच्दा पनि यो चढ्दैन; कृपया एडमिनलाई भन्नुहोस्।
cash-unsure-final = ⚠️ रसिद { $ref } हिसाबमा चढ्यो कि चढेन अझै थाहा भएन: { $tries } पटकमा हिसाबले जवाफ दिएन, त्यसैले यहीँ रोकियो। उही पैसाका लागि अहिले फेरि { $command } नपठाउनुहोस्: हिसाबले जवाफ दिएपछि एडमिनले ब्याक अफिसमा { $ref } हेर्नुहुन्छ। चढेको भए पैसा पुगिसकेको छ, अरू केही गर्नु पर्दैन; नचढेको भए त्यसपछि फेरि { $command } पठाउनुहोस्।
cashin-repeat = ⚠️ यो नम्बरमा तपाईंबाट आज नै { $amount } नगद जम्मा भइसकेको छ: { $time }, रसिद { $ref }। ग्राहकले फेरि त्यति नगद तिरेको भए मात्र पुष्टि गर्नुहोस्।
# --- end h-cashin ---

# --- s21 review (h-settle2): the aggregator's answer stops a settlement; one's own proposal ---
settle-aggregator-disagrees = एग्रिगेटरले अर्डर { $ref } को अन्तिम जवाफ भर्खरै दियो (उसले भन्यो: { $said }), तर त्यो जवाफ अर्डरसँग मिल्दैन (अर्कै ट्रान्जेक्सन आईडी)। केही पनि मिलान गरिएन: पहिले एग्रिगेटरसँग मिलाउनुहोस्।
settle-aggregator-unsure = एग्रिगेटरले अर्डर { $ref } को रिचार्ज पुष्टि गर्दैन: { $cause } (उसले भन्यो: { $said })। सफल भनेर मिलान गरिएन: असफल भनेर मिलान गर्नुहोस्, वा पहिले एग्रिगेटरसँग मिलाउनुहोस्।
settle-unsure-not-found = उससँग यस्तो अर्डर छैन (फेला परेन)
settle-unsure-other-order = उसले अर्को अर्डरको बारेमा जवाफ दियो
settle-unsure-refused = उसले आफ्नै त्रुटि जवाफमा स्थिति सोधाइ अस्वीकार गर्‍यो, जसले "फेला परेन" लुकाउन सक्छ
settle-unsure-unreadable = उसको जवाफ पढ्न सकिएन, जसले "फेला परेन" लुकाउन सक्छ
settle-unsure-unknown-word = उसले बटले नचिन्ने स्थिति शब्द भन्यो
settle-own-proposal-waits = अर्डर { $ref } मिलान गर्ने तपाईंको आफ्नै प्रस्ताव अर्को एडमिनको स्वीकृति कुर्दैछ: केही पनि मिलान गरिएन। हेर्न वा फिर्ता लिन /settle { $ref } पठाउनुहोस्।
settle-disabled = यो बटमा हातैले मिलान गर्ने सुविधा बन्द छ: केही पनि परिवर्तन भएन। सबै इन्स्ट्यान्सले यो संस्करण चलाएपछि सञ्चालकले यसलाई खोल्छन्।
settle-done-told = अरू एडमिनलाई भनियो।

# --- h-settle3: the aggregator's answer could not be written during a settlement ---
settle-answer-unwritten = एग्रिगेटरले अर्डर { $ref } को जवाफ दियो (उसले भन्यो: { $said }), तर त्यो जवाफ सेभ हुन सकेन, त्यसैले केही पनि मिलान गरिएन र तपाईंको निर्णयले कुनै पैसा सरेन। केही बेरपछि फेरि /settle { $ref } पठाउनुहोस्: अर्डर त्यतिबेला जस्तो छ, त्यस्तै देखिन्छ।
# --- h-waid2: a WhatsApp number that writes as another WhatsApp user (held until an admin decides) ---
wa-held = ⏸️ यो WhatsApp नम्बर ({ $phone }) को खाता हाम्रो सहयोग टोलीले जाँच गर्दैछ: यो नम्बरबाट अब त्यो खाता भएको भन्दा अर्कै WhatsApp प्रयोगकर्ताले लेख्दै हुनुहुन्छ। सहयोग टोलीले निर्णय नगरेसम्म त्यो खाताको केही पनि (ब्यालेन्स, इतिहास, सुरक्षित नम्बरहरू) यहाँ देखाइँदैन, र केही पनि खर्च वा अर्डर गर्न मिल्दैन। सहयोग टोलीलाई जानकारी दिइएको छ र उहाँहरूले यही च्याटमा तपाईंलाई लेख्नुहुनेछ; तपाईंले रिचार्ज गर्ने पसलमा पनि सोध्न सक्नुहुन्छ।
wa-held-released = ℹ️ यो WhatsApp नम्बर ({ $phone }) अब हामीसँग भएको पहिलेको खातासँग जोडिएको छैन, र त्यो खाता तपाईंको होइन। यो सन्देशले कुन WhatsApp प्रयोगकर्ताले पठायो भनेर बताएन, त्यसैले तपाईंको आफ्नै खाता खोल्न सकिएन: अद्यावधिक WhatsApp बाट फेरि लेख्नुहोस्, वा Telegram मा यही नम्बरले दर्ता गर्नुहोस् (त्यहाँ आफ्नो सम्पर्क पठाउनुहोस्)।
wa-held-admin = WhatsApp नम्बर { $phone } बाट त्यसको खाता { $account } भएको भन्दा अर्कै WhatsApp प्रयोगकर्ता ({ $user }, आईडी { $id }) ले लेख्दै हुनुहुन्छ (पुनः प्रयोग गरिएको नम्बर, वा धनीको नयाँ पहिचान)। त्यो प्रेषकलाई रोकिएको छ: खाताको केही देखाइएको वा खर्च गरिएको छैन, केही सारिएको छैन। च्याटमा निर्णय गर्नुहोस्: /waid { $phone } { $accept } { $id } (यो प्रेषक उही व्यक्ति हो: आईडी { $id } भएको प्रेषक मात्र स्वीकार हुन्छ) वा /waid { $phone } { $release } (नम्बर खाताबाट छुट्छ, खाताको पैसा त्यहीँ रहन्छ; जोसुकै रोकिएको होस्)।
waid-usage = /waid <नम्बर> { $accept } <आईडी> (सूचनामा लेखिएको आईडी भएको रोकिएको WhatsApp प्रयोगकर्ता नै खाताको धनी हो) वा /waid <नम्बर> { $release } (नम्बर खाताबाट छुट्छ, खाताको पैसा त्यहीँ रहन्छ) पठाउनुहोस्।
waid-none = { $phone } भएको कुनै WhatsApp खाता निर्णय कुरिरहेको छैन: केही परिवर्तन भएन।
waid-other = { $phone }: अहिले रोकिएको WhatsApp प्रयोगकर्ताको आईडी { $pending } हो, { $id } होइन (तपाईंले जवाफ दिँदै गरेको सूचनापछि अर्को प्रेषकले लेख्यो)। केही परिवर्तन भएन। सबैभन्दा नयाँ सूचना पढ्नुहोस्, अनि फेरि /waid पठाउनुहोस्।
waid-accepted = ✅ { $phone }: रोकिएको WhatsApp प्रयोगकर्ता अब खाता { $account } (त्यसको ब्यालेन्स र इतिहास) को धनी हो। तपाईंको पहिचान र समयसहित अभिलेख राखियो।
waid-released = ✅ { $phone } खाता { $account } बाट छुटाइयो; त्यो खातामा त्यसको पैसा र इतिहास रहन्छ, तर त्यसको कुनै सन्देश अब त्यो WhatsApp नम्बरमा जाँदैन (त्यसको धनीले पहिले जोडिएको Telegram च्याटबाट वा सपोर्टमार्फत मात्र त्यो खाता चलाउन सक्नुहुन्छ)। नम्बरको धारकले अर्को पटक WhatsApp मा लेख्दा नयाँ, खाली खाता पाउनुहुन्छ। तपाईंको पहिचान र समयसहित अभिलेख राखियो।
waid-released-open = त्यो खाताका अझै चलिरहेका अर्डरहरू: { $count }। तिनका नतिजा त्यो नम्बरमा पुग्दैनन् (खाताको इतिहासमा देखिन्छन्):
waid-released-order = • { $ref }: { $amount }, { $status }
waid-released-more = … र अरू { $more } अर्डर।
waid-released-none = त्यो खाताको कुनै अर्डर चलिरहेको थिएन।
waid-released-looked = (त्यसका सबैभन्दा नयाँ { $count } अर्डर मात्र हेरिए।)
waid-released-unread = (त्यो खाताका अझै चलिरहेका अर्डरहरू अहिले पढ्न सकिएन; खाताको इतिहासमा ती देखिन्छन्।)
cmd-waid = रोकिएको WhatsApp खाताबारे निर्णय गर्नुहोस् (एडमिन)
cashin-held = { $phone } को खाता सहयोग टोलीले जाँच गर्दैछ (त्यसको WhatsApp नम्बरबाट अर्कै WhatsApp प्रयोगकर्ताले लेख्दैछ): एडमिनले निर्णय नगरेसम्म यसमा नगद थप्न मिल्दैन। अहिले यसका लागि नगद नलिनुहोस्।
cashin-blocked = { $phone } को खाता पसलले रोकेको छ: यसमा नगद थप्न मिल्दैन (ग्राहकले त्यो पैसा प्रयोग गर्न सक्दैनन्)। यसका लागि नगद नलिनुहोस्।
cashin-moved = { $phone } अब तपाईंले नगद थप्न लागेको खाताको नम्बर होइन (यसबीचमा नम्बर त्यो खाताबाट हट्यो)। केही पनि लेखिएन: अहिले यसका लागि नगद नलिनुहोस्; आज नम्बर जसको हो उसलाई थप्न फेरि /cashin पठाउनुहोस्।
# --- h-staffmenu: staff mode offers no /cashin or /myqr; /credit's float waits for prepaid ---
help-admin-accounts-staff = /credit – रकम जम्मा गरेका एजेन्टलाई प्रिपेड मोडमा सर्नुअघि थप्नुहोस्: अर्डर व्यापारीको वालेटबाट तिरिँदासम्म नगद जम्मा बन्द छ, त्यसैले अहिले यसबाट कुनै ग्राहकले मौज्दात पाउँदैन; /reverse – नगद जम्मा वा रकम थप कारणसहित फिर्ता गर्नुहोस्।
credit-staff-mode = अर्डर व्यापारीको वालेटबाट तिरिँदासम्म नगद जम्मा बन्द छ: यो एजेन्ट मौज्दात प्रिपेड मोडमा सरेपछिका लागि हो, त्यतिन्जेल कुनै ग्राहकले यसबाट केही पाउन वा खर्च गर्न सक्दैन।
shortcut-qr-staff-mode = पसलको क्यूआर कोड बन्द छ: यस पसलका अर्डर व्यापारीको वालेटबाट तिरिन्छन् र कर्मचारीले मात्र अर्डर गर्न पाउँछन्, त्यसैले स्क्यान गर्ने ग्राहकले यहाँ अर्डर गर्न सक्दैन।
register-prompt-staff = आफ्नै फोन नम्बर दर्ता गर्न तलको "📱 मेरो फोन नम्बर पठाउनुहोस्" थिच्नुहोस्।

# --- h-wamove: a customer's balance moved to their other account (a changed WhatsApp number) ---
statement-kind-move = तपाईंका खाताहरूबीच सारिएको
movement-move-in = { $time } · +{ $amount } तपाईंको अर्को खाताबाट यहाँ सारियो
movement-move-out = { $time } · −{ $amount } तपाईंको अर्को खातामा सारियो
move-notice-from = ↪️ व्यापारीले तपाईंको पूरा मौज्दात, { $amount }, तपाईंको अर्को खातामा सार्नुभयो। यहाँको मौज्दात: { $balance }
move-notice-to = ↩️ व्यापारीले { $from } को तपाईंको खाताबाट { $amount } यो खातामा सार्नुभयो। तपाईंको मौज्दात: { $balance }
wa-number-changed = तपाईंले आफ्नो WhatsApp नम्बर { $old } बाट यो नम्बरमा बदल्नुभयो। तपाईंको मौज्दात अहिलेलाई { $old } को खातामै रहन्छ: हाम्रो सहयोग टोलीले यसलाई यो नम्बरको तपाईंको खातामा सार्नेछ र सकिएपछि यहीँ जानकारी दिनेछ। केही पनि हराउँदैन।
wa-number-changed-admin = WhatsApp नम्बर परिवर्तन: { $old } (खाता { $account }) अब { $new } भयो। सूचनामा मेटाको हस्ताक्षर छ। ब्याक अफिसको नम्बर परिवर्तन पानामा मौज्दात सार्नुहोस्: { $link }
