# मुख्य पाठ। हर प्रक्रिया के पाठ नीचे उसके उपसर्ग के साथ हैं।

start-welcome = नमस्ते { $name }! मैं नेपाल और भारत में मोबाइल, डेटा पैक, टीवी, इंटरनेट, लैंडलाइन, पानी और बिजली के बिल भरने में मदद करता हूँ।
help-text = मैं यह कर सकता हूँ:
    /recharge – रिचार्ज या बिल भुगतान
    /status – रेफ़रेंस नंबर से ऑर्डर देखें
    /history – आपके पिछले ऑर्डर, रेफ़रेंस, कुल और "दोहराएँ" के साथ; /history 2026-10 एक महीना, /history 9841234567 एक नंबर दिखाता है
    /saved – सहेजे नंबर और खाते
    /language – भाषा बदलें
    /cancel – चल रहा काम रोकें
    ऑर्डर सफल या असफल होने पर आपको संदेश मिलता है।
help-agent = एजेंट के रूप में आप /status से कोई भी ऑर्डर देख सकते हैं।
help-admin = एडमिन के रूप में आप /balance से वॉलेट देख सकते हैं।
cmd-start = शुरू करें
cmd-recharge = रिचार्ज या बिल भुगतान
cmd-status = ऑर्डर देखें
cmd-history = मेरे पिछले ऑर्डर
cmd-language = भाषा बदलें
cmd-help = सहायता
cmd-cancel = रद्द करें
cmd-balance = मेरा बैलेंस

menu-prompt = आप क्या भरना चाहते हैं?
menu-mobile = 📱 मोबाइल टॉप-अप
menu-datapack = 📶 डेटा पैक
menu-dth = 📺 टीवी (DTH)
menu-internet = 🌐 इंटरनेट
menu-landline = ☎️ लैंडलाइन
menu-water = 🚰 पानी का बिल
menu-electricity = 💡 बिजली का बिल
menu-india = 🇮🇳 भारत रिचार्ज

language-name = हिन्दी
language-prompt = अपनी भाषा चुनिए:
language-set = भाषा हिंदी कर दी गई।

common-cancel = ✖ रद्द करें
common-confirm = ✅ पुष्टि करें
common-back = ‹ पीछे
common-prev = ‹
common-next = ›
common-page = { $page }/{ $pages }
common-cancelled = रद्द कर दिया। कोई राशि नहीं कटी। फिर से शुरू करने के लिए /recharge भेजिए।
common-cancelled-whatsapp = रद्द कर दिया। कोई राशि नहीं कटी। फिर से शुरू करने के लिए "{ $recharge }" टाइप कीजिए।
common-nothing-to-cancel = रद्द करने के लिए कुछ नहीं है।
common-idle-ended = { $minutes } मिनट तक जवाब न आने से पिछला अनुरोध बंद हो गया। कोई राशि नहीं कटी।
common-send-text = कृपया टेक्स्ट संदेश से जवाब दें या बटन इस्तेमाल करें।
common-slow-down = आप बहुत तेज़ी से संदेश भेज रहे हैं। कुछ सेकंड रुकिए; इस बीच भेजे गए संदेश अनदेखे किए जाएँगे।
common-use-buttons = कृपया कोई एक बटन चुनिए।
common-button-expired = यह बटन अब सक्रिय नहीं है।
common-try-again = कृपया फिर से कोशिश करें:
common-search-hint = खोजने के लिए नाम का कुछ हिस्सा भी लिख सकते हैं।
common-search-none = "{ $query }" से कुछ नहीं मिला। नाम का कोई और हिस्सा आज़माइए।
common-search-results = "{ $query }" से मिलते नतीजे:
flow-leave-question = यह ऑर्डर छोड़ दें? अब तक भरी गई जानकारी मिट जाएगी।
flow-keep = ↩ जारी रखें
flow-leave = 🚪 छोड़ दें
flow-left = छोड़ दिया। कोई राशि नहीं कटी।
flow-left-over = यह बटन दबाने से पहले ही वह ख़त्म हो चुका था, इसलिए इससे कुछ छोड़ा या रद्द नहीं हुआ: वहाँ पुष्टि किया गया ऑर्डर जारी रहता है (आपके ऑर्डर /history में दिखते हैं)।
flow-other-account = इस चैट में खुला अनुरोध किसी दूसरे खाते ने शुरू किया था, इसलिए यहाँ समाप्त हो गया। शुरू करने के लिए /start भेजें।
flow-other-account-linked = यह चैट अब दूसरा खाता इस्तेमाल करती है (/link से बना जोड़ बनाया गया या खत्म किया गया, आपने या खाते के मालिक ने), इसलिए पहले वाले खाते से शुरू किया गया अनुरोध यहाँ समाप्त हो गया: उसका आगे कुछ नहीं किया गया। शुरू करने के लिए /start भेजें।
common-private-only = आपकी सुरक्षा के लिए ऑर्डर केवल मेरे साथ निजी चैट में लिए जाते हैं।
common-unknown-input = मैं समझ नहीं पाया। कुछ भरने के लिए /recharge या सहायता के लिए /help भेजिए।
common-unknown-input-whatsapp = मैं समझ नहीं पाया। कुछ भरने के लिए "{ $recharge }" या सहायता के लिए "{ $help }" टाइप कीजिए।
common-media-whatsapp = मैं सिर्फ़ टेक्स्ट संदेश और बटन पढ़ सकता हूँ; फ़ोटो, फ़ाइल, वॉइस संदेश या स्टिकर नहीं। कृपया जो चाहिए वह लिखकर भेजिए: कुछ भरने के लिए "{ $recharge }", या सहायता के लिए "{ $help }"।
common-lookup-failed = रिचार्ज सेवा अभी जवाब नहीं दे रही है। आपके जवाब सुरक्षित हैं; "फिर कोशिश करें" दबाइए या एक मिनट बाद कोशिश कीजिए।
common-retry = 🔄 फिर कोशिश करें
common-error = हमारी तरफ़ से कुछ गड़बड़ हुई। फिर से कोशिश करने से पहले कृपया /history में देखें कि आपका ऑर्डर हुआ या नहीं।

err-empty = कृपया कोई मान लिखिए।
err-not-digits = कृपया केवल अंक लिखिए।
err-length = इसमें { $actual } अंक हैं; ठीक { $expected } चाहिए।
err-leading-zero = नंबर 0 से शुरू नहीं होना चाहिए।
err-trunk-zero = कृपया शुरू का 0 हटा दें: नंबर उसके बाद के { $expected } अंक है, और आपने 0 के बाद { $actual } अंक लिखे।
err-india-prefix = भारत का मोबाइल नंबर 6, 7, 8 या 9 से शुरू होता है।
err-phone-mobile-length = यह फ़ोन नंबर नहीं है: यह मोबाइल की तरह 9 से शुरू होता है पर इसमें { $actual } अंक हैं, और मोबाइल नंबर में 10 अंक होते हैं। (लैंडलाइन में 7 से 9 अंक होते हैं और वह 9 से शुरू नहीं होता।)
err-phone-landline-length = यह फ़ोन नंबर नहीं है: इसमें (शुरू के 0 के बिना) { $actual } अंक हैं, और लैंडलाइन में 7 से 9 अंक होते हैं। (मोबाइल में 9 से शुरू होने वाले 10 अंक होते हैं।)
err-prefix = यह नंबर इस ऑपरेटर का नहीं है। यह { $allowed } से शुरू होना चाहिए।
err-retired-operator = यह नंबर स्मार्टसेल का है, जो अब बंद हो चुका है।
err-india-number = यह भारत का नंबर है। भारत के नंबर 🇮🇳 भारत रिचार्ज से रिचार्ज होते हैं (/recharge भेजिए); यहाँ नेपाल का नंबर लिखिए।
err-foreign-number = यहाँ सिर्फ़ नेपाल के नंबर भरे जा सकते हैं: किसी और देश के कोड के बिना नंबर लिखिए।
err-amount-format = कृपया रुपये में राशि लिखिए, जैसे 100 या 250.50।
err-amount-grouping = अल्पविराम (,) केवल अंकों के समूहों के बीच आता है, जैसे 1,000 या 1,00,000; पैसे बिंदु के बाद लिखे जाते हैं, जैसे 250.50। कृपया राशि फिर से लिखिए।
err-amount-currency = { $asked ->
    [in] यह राशि भारतीय रुपये (₹) में पूछी गई है, आपने नेपाली रुपये लिखे। कृपया रु के बिना ₹ में राशि लिखिए, जैसे 500।
   *[np] यह राशि नेपाली रुपये (रु) में पूछी गई है, आपने भारतीय रुपये लिखे। कृपया ₹ के बिना रु में राशि लिखिए, जैसे 500।
}
err-amount-below = सबसे कम राशि { $min } है।
err-amount-above = सबसे ज़्यादा राशि { $max } है।
err-month-range = कृपया बटन से महीना चुनिए।
err-too-long = यह बहुत लंबा है (अधिकतम { $max } अक्षर)।

confirm-title = कृपया अपना ऑर्डर जाँच लीजिए:
confirm-operator = ऑपरेटर: { $operator }
confirm-number = नंबर / खाता: { $number }
confirm-package = पैक: { $package }
confirm-amount = राशि: { $amount }
confirm-fees = सेवा शुल्क: { $fee }
confirm-fee = शुल्क: { $fee }
confirm-discount = छूट: −{ $discount }
confirm-total = कुल भुगतान: { $total }
confirm-balance-after = बाद में बैलेंस: { $balance }
confirm-price-changed = यह पुष्टि दिखाने के बाद कीमत बदल गई (नई दर या मूल्य सूची)। कुछ भी नहीं काटा गया; ऑर्डर नई कीमत पर फिर से जाँचा जाता है।
confirm-total-inr = कुल: { $total }
confirm-pay-npr = बैलेंस से भुगतान: { $npr } (₹1 = रु { $rate })
balance-short = आपका बैलेंस { $balance } है और इस ऑर्डर की कीमत { $total } है: { $shortfall } कम। कृपया अपने बैलेंस में पैसे जोड़िए (एजेंट जोड़ सकते हैं) और फिर कोशिश कीजिए।
confirm-question = अभी भुगतान करें?

limit-daily-cap = आपने आज की { $cap } की सीमा पूरी कर ली है। यह आधी रात को फिर शुरू होती है: { $time } से आप फिर ऑर्डर कर सकते हैं।
limit-daily-cap-order = यह ऑर्डर आज की { $cap } की सीमा में से { $total } लेता है, पर आज सिर्फ़ { $left } बचा है: अभी { $left } तक का ऑर्डर कर सकते हैं, या यह ऑर्डर { $time } से।
limit-daily-cap-order-india = आज की सीमा नेपाली रुपये में है: { $amount } का यह ऑर्डर (बदलकर, सेवा शुल्क सहित) आज की { $cap } की सीमा में से { $total } लेता है, पर आज सिर्फ़ { $left } बचा है। अभी ऐसी राशि का ऑर्डर कर सकते हैं जिसका बदला हुआ कुल { $left } तक हो, या यह ऑर्डर { $time } से।
limit-rate = आपने प्रति घंटे ऑर्डर की सीमा ({ $count }) पूरी कर ली है; अगला { $time } से।
package-over-limit = जो पैक आज आपके लिए बची राशि से महँगे हैं, वे नहीं दिखाए गए हैं।
package-none-today = इनमें से कोई भी पैक आज आपके लिए बची राशि ({ $left }) में नहीं आता; सीमा आधी रात को फिर शुरू होती है।

receipt-processing = 🧾 ऑर्डर { $ref }
    { $operator } · { $number }
    राशि: { $amount }
    स्थिति: ⏳ प्रक्रिया में
receipt-status = 🧾 ऑर्डर { $ref }
    { $operator } · { $number }
    राशि: { $amount }
    स्थिति: { $status }
receipt-already = यह ऑर्डर पहले ही हो चुका है: रेफ़रेंस { $ref }।
confirm-placed-already = यह ऑर्डर पहले ही हो चुका है: रेफ़रेंस { $ref }, स्थिति { $status }। यह दोबारा नहीं किया जाएगा और दोबारा पैसे नहीं कटेंगे; /status से स्थिति देख सकते हैं।
order-checking = ⚠️ ऑर्डर { $ref } को प्रोसेस करते समय हमारी तरफ़ से कुछ गड़बड़ हुई। हम ऑपरेटर के साथ इसकी जाँच कर रहे हैं और नतीजे का संदेश भेजेंगे। कृपया इस बीच दोबारा ऑर्डर न करें; /status से स्थिति देख सकते हैं।

status-placed = ⏳ प्राप्त हुआ
status-submitting = ⏳ प्रक्रिया में
status-queued = ⏳ कतार में
status-pending = ⏳ लंबित
# रसीद पर queued और pending एक जैसे (src/orders/model.ts RECEIPT_RANK).
receipt-status-open = ⏳ ऑपरेटर के पास
receipt-will-follow = ऑपरेटर का जवाब आते ही हम आपको संदेश भेजेंगे, आमतौर पर कुछ ही मिनटों में।
status-staff-follow = अभी अंतिम नहीं: ऑपरेटर का जवाब आते ही ऑर्डर करने वाले को संदेश भेजा जाएगा।
status-unknown = ⏳ ऑपरेटर से जाँच हो रही है
status-success = ✅ सफल
status-failed = ❌ असफल

notify-success = ✅ ऑर्डर { $ref } सफल रहा।
    { $operator } · { $number } · { $amount }
notify-failed = ❌ ऑर्डर { $ref } असफल रहा। कोई राशि नहीं कटी।
    { $operator } · { $number } · { $amount }
    कारण: { $reason }
notify-admin-stuck = ⚠️ ऑर्डर { $ref } ({ $operator }, { $amount }) { $minutes } मिनट बाद भी पूरा नहीं हुआ। कृपया प्रदाता से जाँच कीजिए।
notify-admin-contradicted-failed = ⚠️ ऑर्डर { $ref } ({ $operator }, { $number }, { $amount }) सफल दर्ज हुआ था और ग्राहक से इसके पैसे लिए गए थे, लेकिन एग्रीगेटर अब कहता है कि यह विफल रहा। { $owed } एग्रीगेटर से ऑर्डर की जाँच कीजिए (उसके वॉलेट में रकम वापस आई दिखनी चाहिए)। अपने आप कुछ नहीं बदला गया: सुधार के लिए एडमिन चाहिए।
notify-admin-contradicted-success = ⚠️ ऑर्डर { $ref } ({ $operator }, { $number }, { $amount }) विफल दर्ज हुआ था और ग्राहक से पैसे नहीं लिए गए थे, लेकिन एग्रीगेटर अब कहता है कि यह सफल रहा: ग्राहक से लिए बिना एग्रीगेटर पर व्यापारी के वॉलेट से रकम कटी। एग्रीगेटर से ऑर्डर की जाँच कीजिए। अपने आप कुछ नहीं बदला गया: सुधार के लिए एडमिन चाहिए।
notify-admin-reversed = ⚠️ ऑर्डर { $ref } ({ $operator }, { $number }, { $amount }) सफल दर्ज हुआ था और ग्राहक से इसके पैसे लिए गए थे, लेकिन एग्रीगेटर अब "{ $word }" कहता है: उसने रिचार्ज उलट दिया और पैसे वापस ले लिए (या लेगा)। { $owed } एग्रीगेटर से ऑर्डर की जाँच कीजिए (उसके वॉलेट में रकम वापस आई दिखनी चाहिए)। अपने आप कुछ नहीं बदला गया: सुधार के लिए एडमिन चाहिए।
notify-admin-reversed-settled = ⚠️ ऑर्डर { $ref } ({ $operator }, { $number }, { $amount }) को एडमिन { $admin } ने सफल के रूप में निपटाया था और ग्राहक से इसके पैसे लिए गए थे, लेकिन एग्रीगेटर अब "{ $word }" कहता है: उसने रिचार्ज उलट दिया और पैसे वापस ले लिए (या लेगा)। { $owed } एग्रीगेटर से ऑर्डर की जाँच कीजिए (उसके वॉलेट में रकम वापस आई दिखनी चाहिए)। अपने आप कुछ नहीं बदला गया: सुधार के लिए एडमिन चाहिए।
# What the contradiction alerts above say of the money ($owed): a complaint refund already
# booked for the order is told as paid, else the customer may be owed one (review s33-rvcomp 5).
notify-admin-refund-owed = ग्राहक को रिफंड देना पड़ सकता है।
notify-admin-refund-paid = शिकायत { $complaint } पर इसके { $paid } ग्राहक को पहले ही लौटाए जा चुके हैं ({ $time }): वह दोबारा मत लौटाइए।
notify-reason-unknown = ऑपरेटर ने इसे पूरा नहीं किया

status-prompt = ऑर्डर का रेफ़रेंस नंबर (या ट्रांज़ैक्शन आईडी) भेजिए।
lookup-cancelled = रद्द कर दिया: कुछ नहीं खोजा गया। इससे किसी ऑर्डर या भुगतान में कुछ नहीं बदलता; आपके ऑर्डर /history में दिखते हैं।
lookup-ended = रोक दिया: कुछ नहीं खोजा गया। इससे किसी ऑर्डर या भुगतान में कुछ नहीं बदलता; आपके ऑर्डर /history में दिखते हैं।
lookup-leave-question = यह खोज रोकें?
status-not-found = उस नंबर का कोई ऑर्डर नहीं मिला।
status-not-yours = उस नंबर का कोई ऑर्डर नहीं मिला।
status-result = 🧾 ऑर्डर { $ref }
    { $operator } · { $number }
    राशि: { $amount }
    स्थिति: { $status }
    समय: { $time }
status-provider-result = प्रदाता के अनुसार: ऑर्डर { $ref }, { $operator } · { $number }, { $amount }, स्थिति: { $status }
status-invalid = रेफ़रेंस नंबर में केवल अंक होते हैं।

history-empty = आपका अभी कोई ऑर्डर नहीं है। ऑर्डर करने के लिए /recharge भेजिए।
history-title = आपके पिछले ऑर्डर:
history-title-page = आपके पिछले ऑर्डर (पेज { $page }):
history-item =
    { $time } · { $category }
    { $operator } · { $number } · { $status }
    कुल: { $total } · रेफ़रेंस: { $ref }
history-repeat = 🔁 दोहराएँ { $number } · { $amount }
history-prev = ⬅️ पिछला
history-next = अगला ➡️

balance-result = वॉलेट बैलेंस: { $amount }
balance-admin-own = 💳 आपका अपना बैलेंस (आपके अपने ऑर्डर इसी से चुकते हैं): { $available }
balance-denied = यह कमांड केवल एडमिन के लिए है।

# status, history, repeat, balance
status-transaction = ट्रांज़ैक्शन आईडी: { $tx }
status-reason = कारण: { $reason }
status-customer = ग्राहक (टेलीग्राम आईडी): { $user }
status-customer-whatsapp = ग्राहक (WhatsApp खाता आईडी): { $user }
status-wallet = वॉलेट: { $debit } कटे (सेवा शुल्क { $fee }), बाकी बैलेंस: { $balance }
balance-unavailable = रिचार्ज सेवा अभी जवाब नहीं दे रही है। कृपया एक मिनट बाद फिर कोशिश कीजिए।
repeat-intro = 🔁 ऑर्डर { $ref } दोहराया जा रहा है।
repeat-unavailable = यह ऑर्डर अब दोहराया नहीं जा सकता। नया ऑर्डर करने के लिए /recharge भेजिए।
repeat-package-gone = "{ $package }" पैक अब { $number } के लिए उपलब्ध नहीं है। दूसरा चुनने के लिए /recharge भेजिए।
repeat-lookup-failed = यह ऑर्डर दोहराया नहीं जा सका: { $message }
    फिर से शुरू करने के लिए /recharge भेजिए।
repeat-nothing-due = इस बिल पर अभी कुछ बकाया नहीं है। अग्रिम भुगतान करना हो तो /recharge भेजिए।
repeat-bill-under-way = इस बिल का भुगतान (ऑर्डर { $ref }) अभी प्रक्रिया में है, इसलिए मैं इसे अभी दोबारा नहीं भरूँगा। इसका नतीजा संदेश में आएगा; फिर /history देखें।
repeat-bill = { $name } का बिल: अभी { $amount } बकाया।

# bill (shared by the water and electricity flows)
bill-offices-failed = कार्यालयों की सूची नहीं मिल सकी ({ $reason })। कोई पैसा नहीं कटा। थोड़ी देर बाद /recharge भेजकर फिर कोशिश कीजिए।
bill-account-invalid = केवल अक्षर, अंक और . - _ / का प्रयोग कीजिए (बिना स्पेस)।
bill-month-1 = बैशाख
bill-month-2 = जेठ
bill-month-3 = असार
bill-month-4 = साउन
bill-month-5 = भदौ
bill-month-6 = असोज
bill-month-7 = कार्तिक
bill-month-8 = मंसिर
bill-month-9 = पौष
bill-month-10 = माघ
bill-month-11 = फागुन
bill-month-12 = चैत
bill-field-previous = पिछला बकाया { $amount }
bill-field-current = इस महीने { $amount }
bill-field-amount = बिल { $amount }
bill-field-fine = जुर्माना { $amount }
bill-field-penalty = विलंब शुल्क { $amount }
bill-field-discount = छूट { $amount }
bill-field-total = कुल { $amount }
bill-field-payable = देय { $amount }
bill-row = • { $heading }: { $details }
bill-address = पता: { $address }
bill-total = कुल बकाया: { $amount }
bill-nothing-due = इस खाते पर अभी कोई बकाया नहीं है।
bill-ask-amount = { $due } का बकाया चुकाइए, या कोई और राशि ({ $max } तक) लिखिए, जैसे अग्रिम भुगतान के लिए:
bill-pay-due = 💳 बकाया { $amount } चुकाएँ
bill-ask-advance = आप अग्रिम भुगतान कर सकते हैं: { $max } तक की राशि लिखिए।
bill-confirm-office = कार्यालय: { $office }
bill-confirm-customer = ग्राहक: { $name }
bill-confirm-due = बिल का बकाया: { $amount }

# --- h-catalog: the provider's catalogue and the India DTH bill (issue 16) ---
catalog-category-withdrawn = माफ़ कीजिए, अभी इस श्रेणी में कुछ भी उपलब्ध नहीं है। कोई पैसा नहीं कटा। /recharge भेजकर कोई और चुनिए।
catalog-operator-withdrawn = माफ़ कीजिए, { $operator } अब उपलब्ध नहीं है, इसलिए यह ऑर्डर नहीं किया गया और कोई पैसा नहीं कटा। /recharge भेजकर फिर से शुरू कीजिए।
# --- issue 15: receipts and pushes with the money (h-books) ---
receipt-title = 🧾 ऑर्डर { $ref }
receipt-line-tx = ट्रांज़ैक्शन आईडी: { $tx }
receipt-line-time = तारीख: { $time }
receipt-line-category = सेवा: { $category }
receipt-line-package = पैक: { $package }
receipt-line-month = बिल का महीना: { $month }
receipt-line-main = { $operator } · { $number } · { $amount }
receipt-line-fee = शुल्क: { $fee }
receipt-line-discount = छूट: −{ $discount }
receipt-line-total = कुल: { $total }
receipt-line-total-paid = कुल भुगतान: { $total }
receipt-line-balance = बाद में बैलेंस: { $balance }
# A successful order refunded on a complaint (review s33-rvtruth 7): the refund, and for a part
# refund what the customer paid in the end.
receipt-line-refunded = { $time } को { $refund } वापस किए गए (शिकायत { $complaint })
receipt-line-paid-in-end = अंत में भुगतान: { $paid }
receipt-line-held-npr = बैलेंस से रोका गया: { $npr } (₹1 = रु { $rate })
receipt-line-paid-npr = बैलेंस से { $npr } का भुगतान हुआ (₹1 = रु { $rate })
receipt-line-status = स्थिति: { $status }
notify-title-success = ✅ ऑर्डर { $ref } सफल रहा।
notify-title-failed = ❌ ऑर्डर { $ref } असफल रहा।
notify-returned = { $total } आपके बैलेंस में वापस कर दिए गए।
notify-nothing-charged = कोई राशि नहीं कटी।
notify-reason = कारण: { $reason }
notify-service-unavailable = सेवा कुछ देर के लिए उपलब्ध नहीं है; कृपया थोड़ी देर बाद फिर कोशिश कीजिए
# --- end issue 15 (h-books) ---

# --- issue 15: the admin's books, /books (h-books) ---
cmd-books = व्यापारी का खाता (एडमिन)
books-title = 📒 { $time } का खाता
books-customers = ग्राहकों का बैलेंस, खाते में दर्ज (रोका गया शामिल): { $balance } (इनमें से चल रहे ऑर्डर के लिए रोका गया: { $held }; { $count ->
        [one] { $count } खाता
       *[other] { $count } खाते
    })
books-agents = एजेंटों का बैलेंस, खाते में दर्ज (रोका गया शामिल): { $balance } ({ $count ->
        [one] { $count } खाता
       *[other] { $count } खाते
    })
books-fees = शुल्क आय: { $fees }
books-margin = मुनाफ़ा: { $orders } ऑर्डर पर { $margin } (बताया गया कमीशन: { $commission })
books-refunds = शिकायतों पर वापसी: { $count } बार, { $sum } (इसमें शुल्क: { $fee }); ऊपर का मुनाफ़ा और शुल्क आय इन्हें घटाकर है।
books-refunds-unread = ⚠️ { $count } वापसी ({ $sum }) का ऑर्डर पढ़ा नहीं जा सका: उनका शुल्क हिस्सा पता नहीं है और ऊपर की शुल्क आय में ही है (अधिकतम { $sum })।
books-refunds-out-of-margin = सेवा प्रदाता की कटौती के बिना दर्ज ऑर्डरों की { $count } वापसी ({ $sum }): उन ऑर्डरों की तरह मुनाफ़े में नहीं गिनी गई।
books-float = सेवा प्रदाता के पास वॉलेट: खाते के अनुसार { $expected }, प्रदाता बताता है { $reported } (अभी दर्ज नहीं हुई कटौती: { $flying })
books-drift = अंतर: { $drift } (सहनसीमा { $tolerance })
books-balanced = ✅ खाता मिलता है: सभी खातों का जोड़ शून्य है।
books-unbalanced = ❌ खाता नहीं मिलता: { $problems } समस्याएँ। जर्नल जाँचिए।
books-unknown = पता नहीं
# --- end /books (h-books) ---
# --- top-up: adding money with Khalti (issue 17) ---
topup-button = ➕ पैसे जोड़ें
topup-ask-amount = बैलेंस में कितने जोड़ने हैं? { $min } से { $max } तक की रकम लिखें, या चुनें:
topup-not-offered = यहाँ ऑनलाइन पैसे जोड़ने की सुविधा नहीं है। एजेंट आपके बैलेंस में पैसे जोड़ सकते हैं।
topup-gateway-down = खल्ती अभी जवाब नहीं दे रहा है। कुछ नहीं कटा। कुछ मिनट बाद /addmoney से फिर कोशिश करें।
topup-refused = अभी ऑनलाइन पैसे जोड़ने की सुविधा उपलब्ध नहीं है। कुछ नहीं कटा, और हमारी टीम को बता दिया गया है। तब तक एजेंट आपके बैलेंस में पैसे जोड़ सकते हैं।
topup-daily-cap = आज आप ज़्यादा से ज़्यादा { $remaining } और जोड़ सकते हैं।
topup-pay-button = खल्ती से भुगतान करें
topup-checkout = { $amount } जोड़ने के लिए "खल्ती से भुगतान करें" दबाएँ और ब्राउज़र में भुगतान करें (खल्ती वॉलेट, ई-बैंकिंग, मोबाइल बैंकिंग या कार्ड)। लिंक कुछ समय तक ही चलता है।
    खल्ती के भुगतान की पुष्टि करने पर मैं रकम आपके बैलेंस में जोड़कर यहीं बताऊँगा। रद्द करने या लिंक की समय सीमा ख़त्म होने पर कुछ नहीं जुड़ता।
topup-credited = ✅ { $amount } आपके बैलेंस में जुड़ गए। बैलेंस: { $balance }
topup-expired = { $amount } के भुगतान लिंक की समय सीमा ख़त्म हो गई। कुछ नहीं जुड़ा।
topup-cancelled = { $amount } का भुगतान रद्द हो गया। कुछ नहीं जुड़ा।
topup-refunded = खल्ती ने आपका { $amount } का भुगतान लौटा दिया; बैलेंस से { $reversed } वापस लिए गए। बैलेंस: { $balance }
# --- h-partial: a partial refund at Khalti (the admin enters the amount returned) ---
topup-refund-partial = खल्ती के अनुसार आपके { $amount } के भुगतान का कुछ हिस्सा लौटाया गया है। कितना लौटाया गया, हमारी टीम इसकी जाँच कर रही है; अभी आपका बैलेंस नहीं बदला है। काम पूरा होने पर हम आपको यहीं संदेश भेजेंगे।
topup-refunded-part = खल्ती ने आपके { $amount } के भुगतान में से { $returned } लौटा दिए; बैलेंस से { $reversed } वापस लिए गए। बैलेंस: { $balance }
# --- h-partial2: a refund whose amount Khalti does not say, credited or not ---
topup-refund-unknown = खल्ती के अनुसार आपका { $amount } का भुगतान लौटाया गया है, पर कितना, यह नहीं बताया। हमारी टीम इसकी जाँच कर रही है; अभी आपका बैलेंस नहीं बदला है। काम पूरा होने पर हम आपको यहीं संदेश भेजेंगे।
topup-refunded-rest = खल्ती ने आपके { $amount } के भुगतान में से { $returned } लौटा दिए; बाकी { $credited } आपके बैलेंस में जोड़ दिए गए। बैलेंस: { $balance }
topup-refunded-uncredited = आपका { $amount } का भुगतान बैलेंस में जुड़ने से पहले ही खल्ती ने लौटा दिया: बैलेंस में न कुछ जुड़ा, न कुछ घटा। बैलेंस: { $balance }
# --- h-payfee: a refund's rest the balance lacked, taken back later (review s31-pay, 4b) ---
topup-refund-owed = आपका बैलेंस उतना नहीं था: बाकी { $owed } बैलेंस में पैसा आने पर (आपके जोड़ने पर, या किसी ऑर्डर का भुगतान लौटने पर) वापस लिया जाएगा।
topup-refund-taken = खल्ती ने आपका { $amount } का भुगतान पहले ही लौटा दिया था, पर तब आपका बैलेंस उतना नहीं था: अब बैलेंस से { $taken } और वापस लिए गए; { $owed } अभी बाकी है। बैलेंस: { $balance }
topup-refund-taken-all = खल्ती ने आपका { $amount } का भुगतान पहले ही लौटा दिया था, पर तब आपका बैलेंस उतना नहीं था: बाकी { $taken } अब बैलेंस से वापस लिए गए; अब कुछ बाकी नहीं है। बैलेंस: { $balance }
writeoff-usage = /writeoff <भुगतान आईडी> <कारण> भेजें: लौटाए गए टॉप-अप पर अभी भी बाकी रकम (लौटाते समय ग्राहक का बैलेंस कम था) कारण सहित समायोजन खाते से बट्टे खाते में डाली जाती है, और उसे वापस लेना बंद होता है।
writeoff-done = टॉप-अप { $pid } (उपयोगकर्ता { $user }) के { $amount } बट्टे खाते में डाले गए: आपके कारण सहित समायोजन खाते से; ग्राहक से अब कुछ वापस नहीं लिया जाएगा।
writeoff-nothing = टॉप-अप { $pid } पर कुछ बाकी नहीं है (लौटाया नहीं गया, पूरा वापस लिया जा चुका, या पहले ही बट्टे खाते में): कुछ दर्ज नहीं हुआ।
writeoff-unknown = टॉप-अप { $pid } नहीं है: कुछ दर्ज नहीं हुआ।
writeoff-refused = खातों ने टॉप-अप { $pid } का बट्टा खाता अस्वीकार किया: कुछ दर्ज नहीं हुआ। कृपया देखें।
topup-rejected-refund = खल्ती के अनुसार आपका { $amount } का भुगतान पूरा या उसका कुछ हिस्सा लौटाया गया है। हमारी टीम इसमें से कुछ भी आपके बैलेंस में नहीं जोड़ सकी; कुछ नहीं जुड़ा। अगर खल्ती ने कुछ हिस्सा रखा है, तो दुकान वह हिस्सा खल्ती के ज़रिए लौटाती है; न पहुँचे तो दुकान से पूछें।
help-topup = /addmoney – खल्ती से बैलेंस में पैसे जोड़ें
cmd-addmoney = पैसे जोड़ें
# ---- accounts: registration, access modes, cash-in, credit, reversal, /balance (issue 15, h-accounts) ----
cmd-register = मेरे फ़ोन नंबर से पंजीकरण
cmd-cashin = ग्राहक के लिए नकद जमा (एजेंट)
cmd-credit = एजेंट के खाते में राशि जोड़ें (एडमिन)
cmd-reverse = नकद जमा या राशि वापस लें (एडमिन)
register-button = 📱 मेरा फ़ोन नंबर भेजें
register-prompt = ऑर्डर करने के लिए अपने फ़ोन नंबर से पंजीकरण कीजिए: नीचे "📱 मेरा फ़ोन नंबर भेजें" दबाइए। जब आप दुकान पर नकद देते हैं, दुकान इसी नंबर से आपका खाता ढूँढती है।
register-already = आप { $phone } से पंजीकृत हैं।
register-not-yours = यह आपका अपना संपर्क नहीं है। केवल आपके अपने नंबर से पंजीकरण होता है: नीचे "📱 मेरा फ़ोन नंबर भेजें" दबाइए।
register-bad-number = यह फ़ोन नंबर पढ़ा नहीं जा सका। फिर कोशिश करने के लिए नीचे "📱 मेरा फ़ोन नंबर भेजें" दबाइए।
register-done = ✅ { $phone } से पंजीकरण हो गया। अब दुकान इसी नंबर से आपके बैलेंस में पैसे जोड़ सकती है। बैलेंस देखने के लिए: /balance; ऑर्डर के लिए: /recharge।
register-done-staff = ✅ { $phone } से पंजीकरण हो गया।
access-register = कृपया पहले पंजीकरण कीजिए: नीचे "📱 मेरा फ़ोन नंबर भेजें" दबाइए। कोई ऑर्डर नहीं हुआ, कुछ नहीं कटा।
access-private = यह बॉट निजी है: यहाँ केवल व्यापारी के कर्मचारी ऑर्डर कर सकते हैं। कोई ऑर्डर नहीं हुआ, कुछ नहीं कटा।
party-customer = ग्राहक { $who }
party-agent = एजेंट { $who }
party-merchant = व्यापारी की पूँजी
accounts-failed = नहीं हुआ: यह रसीद नंबर पहले किसी और काम में लग चुका है। कुछ नहीं हिला; कृपया फिर से शुरू कीजिए।
cashin-denied = /cashin केवल एजेंट के लिए है।
role-gone = नहीं किया गया: { $command } अब आपके लिए नहीं है (दुकान ने बदल दिया है कि कौन इसे चला सकता है)। कुछ नहीं भेजा गया: कोई बैलेंस नहीं बदला।
cashin-staff-mode = नकद जमा बंद है: इस दुकान के ऑर्डर व्यापारी के वॉलेट से चुकाए जाते हैं, इसलिए ग्राहक का यहाँ खर्च करने लायक कोई बैलेंस नहीं होता। इसके लिए नकद मत लीजिए; कुछ नहीं हिला।
cashin-ask-phone = 💵 नकद जमा: ग्राहक का फ़ोन नंबर? (9841234567 जैसे 10 अंक, या भारत के लिए +91 और नंबर)
cashin-bad-phone = यह फ़ोन नंबर नहीं है: 10 अंक (9841234567) या देश कोड के साथ नंबर (+977…, +91…) लिखिए।
cashin-unknown-phone = { $phone } से कोई पंजीकृत नहीं है। ग्राहक से इस बॉट को /register भेजने को कहिए, या नंबर जाँचिए।
cashin-self = यह आपका अपना नंबर है: नकद जमा ग्राहक के लिए है।
cashin-no-balance = आपका एजेंट बैलेंस { $balance } है: जमा करने को कुछ नहीं है। एडमिन से राशि जोड़ने को कहिए।
cashin-ask-amount = आपने कितना नकद लिया? { $min } से { $max } तक (आपका बैलेंस)।
cashin-ask-amount-capped = आपने कितना नकद लिया? { $min } से { $max } तक (एक नकद जमा की सीमा; आपका बैलेंस { $balance } है)।
cashin-confirm = { $phone } के बैलेंस में { $amount } जोड़ें?
    उसके बाद आपका बैलेंस: { $after }
    रसीद: { $ref }
cashin-done = ✅ नकद जमा हो गया: { $phone } को { $amount }।
    आपका बैलेंस: { $balance }
    रसीद: { $ref }
cashin-received = 💰 आपके बैलेंस में { $amount } जोड़े गए (दुकान पर नकद दिया गया)।
    आपका बैलेंस: { $balance }
    रसीद: { $ref }
cashin-short = नहीं हुआ: बैलेंस { $balance } है, { $shortfall } कम। कुछ नहीं हिला।
credit-denied = /credit केवल एडमिन के लिए है।
credit-no-agents = कोई एजेंट तय नहीं है।
credit-ask-agent = किस एजेंट के खाते में राशि जोड़ें? एक दबाइए, या उनकी टेलीग्राम आईडी लिखिए।
credit-bad-agent = { $id } एजेंट नहीं है: एजेंटों में से एक दबाइए, या किसी एजेंट की टेलीग्राम आईडी लिखिए।
credit-ask-amount = एजेंट { $agent } ने कितना जमा किया? { $min } से { $max } तक।
credit-confirm = एजेंट { $agent } के खाते में { $amount } जोड़ें?
    रसीद: { $ref }
credit-done = ✅ एजेंट { $agent } के खाते में { $amount } जोड़े गए।
    उनका बैलेंस: { $balance }
    रसीद: { $ref }
credit-received = 💰 व्यापारी ने आपके एजेंट बैलेंस में { $amount } जोड़े।
    आपका बैलेंस: { $balance }
    रसीद: { $ref }
reverse-denied = /reverse केवल एडमिन के लिए है।
reverse-ask-id = कौन सी रसीद वापस लेनी है? रसीद में जैसा दिखता है वैसा नंबर लिखिए।
reverse-unknown = रसीद { $ref } वाला कोई नकद जमा या राशि जोड़ नहीं है। नंबर जाँचकर फिर लिखिए।
reverse-not-reversible = रसीद { $ref } खुद एक वापसी है, इसे वापस नहीं लिया जा सकता।
reverse-already = रसीद { $ref } पहले ही वापस ली जा चुकी है (रसीद { $rev })। कुछ नहीं हिला।
reverse-show = रसीद { $ref }: { $from } से { $to } को { $amount }, { $time }।
reverse-ask-reason = वापस क्यों? कुछ शब्द; ये हिसाब में रखे जाते हैं।
reverse-bad-reason = कृपया 3 से 200 अक्षरों का कारण दीजिए।
reverse-confirm = रसीद { $ref } वापस लें: { $to } से { $from } को { $amount }?
    कारण: { $reason }
reverse-done = ✅ वापस हो गया: { $to } से { $from } को { $amount }।
    रसीद: { $rev }
reverse-refused = अस्वीकार: { $to } के पास केवल { $balance } बचे हैं, वापस लेने के { $amount } में { $shortfall } कम। कुछ नहीं हिला।
reverse-notice = ↩️ व्यापारी ने रसीद { $ref } के { $amount } वापस लिए: { $reason }
    आपका बैलेंस: { $balance }
balance-customer = 💰 आपका बैलेंस: { $available }
balance-held = चल रहे ऑर्डरों के लिए रोका गया: { $held }
balance-movements = पिछले लेन-देन:
balance-none = अभी तक कोई लेन-देन नहीं।
balance-unregistered = आप अभी पंजीकृत नहीं हैं: फ़ोन नंबर भेजने के लिए /register भेजिए; फिर दुकान उसी नंबर से आपके बैलेंस में पैसे जोड़ सकती है।
balance-how-to-add = पैसे जोड़ने के लिए दुकान पर नकद दीजिए: वे आपके नंबर { $phone } में जोड़ते हैं।
balance-agent = 🏪 आपका एजेंट बैलेंस: { $available }
balance-agent-own = 💳 आपका अपना बैलेंस (आपके अपने ऑर्डर इसी से चुकते हैं): { $available }
balance-agent-today = आज के नकद जमा: { $count }, कुल { $total }।
balance-agent-line = { $time } · { $customer } को { $amount }
balance-books = व्यापारी का हिसाब: /books
movement-hold = { $time } · ऑर्डर { $ref } के लिए −{ $amount } रोके गए
movement-post = { $time } · ऑर्डर { $ref } के लिए { $amount } चुकाए गए
movement-void = { $time } · +{ $amount } छोड़े गए: ऑर्डर { $ref } असफल
movement-cash-in = { $time } · +{ $amount } दुकान पर नकद दिए गए
movement-demo = { $time } · +{ $amount } नमूना राशि
movement-topup = { $time } · +{ $amount } ऑनलाइन जमा
movement-reversal = { $time } · व्यापारी ने −{ $amount } वापस लिए (उलटा गया)
movement-in = { $time } · +{ $amount } जमा
movement-out = { $time } · −{ $amount } खर्च
balance-partial = लेन-देन की सूची अभी यहाँ दिखाने के लिए बहुत लंबी है; ऊपर का बैलेंस सही है।
balance-staff = आपके ऑर्डर व्यापारी के वॉलेट से चुकाए जाते हैं: यहाँ आपका अपना कोई बैलेंस नहीं है।
help-accounts = /balance – आपका बैलेंस और पिछले लेन-देन
    /register – अपने फ़ोन नंबर से पंजीकरण (दुकान इसी नंबर से आपके बैलेंस में पैसे जोड़ती है)
help-agent-cashin = /cashin – ग्राहक ने आपको नकद दिया: उनके फ़ोन नंबर से उनके बैलेंस में जोड़िए। /balance आपका एजेंट बैलेंस और आज के नकद जमा दिखाता है।
help-admin-accounts = /credit – जमा करने वाले एजेंट के खाते में राशि जोड़िए; /reverse – नकद जमा या राशि जोड़ कारण के साथ वापस लीजिए।
# --- h-flows (issue 16: Back, Edit at the confirmation, operator mismatch, limits up front) ---
flow-edit-number = ✏️ नंबर
flow-edit-amount = ✏️ राशि
flow-edit-package = ✏️ पैक
flow-edit-customer = ✏️ ग्राहक आईडी
confirm-use-buttons = कृपया नीचे दिए बटन इस्तेमाल कीजिए: ✅ पुष्टि करें, ✏️ बदलें या ✖ रद्द करें।
confirm-use-buttons-no-edit = कृपया नीचे दिए बटन इस्तेमाल कीजिए: ✅ पुष्टि करें या ✖ रद्द करें।
bill-due-over-limit = बकाया आज आपके लिए बची राशि ({ $left }) से ज़्यादा है: अभी उसका कुछ हिस्सा चुका सकते हैं।
common-idle-ended-seconds = { $seconds } सेकंड तक जवाब न आने से पिछला अनुरोध बंद हो गया। कोई राशि नहीं कटी।
common-start-again = 🔁 फिर से शुरू करें

## India orders and a prepaid balance (kept in Nepal rupees; no exchange rate yet)

# ---- saved numbers and billers (/saved, "Save as…"; issue 16) ----
cmd-saved = मेरे सहेजे नंबर
saved-save-as = 🏷 नाम से सहेजें…
saved-another = ➕ दूसरा खाता
saved-ask-biller = सहेजे गए खातों में से किसी का भुगतान करें, या किसी दूसरे का?
saved-empty = आपका अभी कोई सहेजा नंबर नहीं है। किसी नंबर का ऑर्डर सफल होने पर वह सहेज लिया जाता है।
saved-title = आपके सहेजे नंबर और खाते:
saved-choose = नाम बदलने या हटाने के लिए एक चुनें।
saved-entry = { $entry }: नाम बदलें या हटाएँ?
saved-rename = ✏️ नाम बदलें
saved-delete = 🗑 हटाएँ
saved-ask-nickname = { $number } को क्या नाम दें? 24 अक्षरों तक का नाम लिखें, जैसे माँ या दुकान का लैंडलाइन।
saved-nickname-empty = नाम खाली है।
saved-nickname-too-long = नाम बहुत लंबा है (अधिकतम 24 अक्षर)।
saved-nickname-control = नाम में नियंत्रण चिह्न नहीं हो सकते।
saved-named = { $entry } नाम से सहेजा गया। अगली बार यह दिखेगा; /saved से नाम बदल या हटा सकते हैं।
saved-renamed = नाम बदला गया: { $entry }।
saved-gone = वह सहेजा नंबर अब नहीं है (इस बीच हटा दिया गया)।
saved-flow-cancelled = रद्द कर दिया: आपके सहेजे नंबर जैसे थे वैसे ही हैं (/saved उन्हें दिखाता है)। इससे किसी ऑर्डर या भुगतान में कुछ नहीं बदलता।
saved-flow-ended = रोक दिया: आपके सहेजे नंबर जैसे थे वैसे ही हैं (/saved उन्हें दिखाता है)। इससे किसी ऑर्डर या भुगतान में कुछ नहीं बदलता।
saved-leave-question = इसे रोकें? आपके सहेजे नंबर जैसे हैं वैसे ही रहेंगे।
saved-delete-question = { $entry } को सहेजे नंबरों से हटाएँ?
saved-delete-yes = 🗑 हाँ, हटाएँ
saved-delete-keep = ↩ रहने दें
saved-kept = { $entry } सहेजा रहेगा।
saved-deleted = { $entry } हटा दिया गया।

# --- h-topup: held top-ups (issue 25) ---
topup-held = आपके { $amount } के भुगतान को बैलेंस में जोड़ने से पहले हमारी टीम उसकी जाँच कर रही है। कुछ नहीं खोया है: काम पूरा होने पर हम आपको यहीं संदेश भेजेंगे।
topup-held-status = हम आपके { $amount } के भुगतान की खल्ती से जाँच कर रहे हैं: उसका जवाब साफ़ नहीं था। आपके बैलेंस में अभी तक कुछ नहीं जोड़ा गया है। अगर भुगतान हो गया था, तो हमारी टीम उसे जोड़ेगी या खल्ती से लौटवाएगी; हम आपको यहीं संदेश भेजेंगे।
topup-held-paid = आपके { $paid } के भुगतान (आपने { $asked } जोड़ने को कहा था) को बैलेंस में जोड़ने से पहले हमारी टीम उसकी जाँच कर रही है। कुछ नहीं खोया है: काम पूरा होने पर हम आपको यहीं संदेश भेजेंगे।
topup-rejected = हमारी टीम आपके { $amount } के भुगतान को बैलेंस में नहीं जोड़ सकी; कुछ नहीं जुड़ा। अगर आपके खल्ती खाते से रकम कटी है, तो दुकान उसे खल्ती के ज़रिए लौटाती है; न पहुँचे तो दुकान से पूछें।
topup-rejected-paid = हमारी टीम आपके { $paid } के भुगतान (आपने { $asked } जोड़ने को कहा था) को बैलेंस में नहीं जोड़ सकी; कुछ नहीं जुड़ा। अगर आपके खल्ती खाते से रकम कटी है, तो दुकान उसे खल्ती के ज़रिए लौटाती है; न पहुँचे तो दुकान से पूछें।
cmd-topups = रुके हुए टॉप-अप: फ़ैसला
cmd-writeoff = बैलेंस से न कटी वापसी बट्टे खाते डालें
# /topups' held top-ups (admins): the buttons, and a credit refused on the figure shown (h-khalti3)
topup-held-credit-asked = { $amount } जमा करें (माँगा गया)
topup-held-credit-paid = { $amount } जमा करें (चुकाया गया)
topup-held-credit-reported = { $amount } जमा करें (गेटवे ने बताया)
topup-held-reject = अस्वीकार करें (गेटवे पर रिफ़ंड)
topup-held-figure-changed = { $pid }: { $gateway } अब { $now } बताता है, संदेश में दिखाया गया { $shown } नहीं: कुछ जमा नहीं किया गया। नीचे के बटन नई राशि दिखाते हैं; फिर से फ़ैसला करें।
topup-held-figure-changed-decided = { $pid }: { $gateway } अब { $now } बताता है, संदेश में दिखाया गया { $shown } नहीं: इस बटन दबाने से कुछ जमा नहीं किया गया। यह अब रोका हुआ नहीं है (दूसरा फ़ैसला लिया गया): क्या बाकी है देखने के लिए /topups भेजें।
topup-held-stale-button = { $pid }: इस बटन पर वह राशि नहीं है जो इसने दिखाई: कुछ जमा नहीं किया गया। मौजूदा बटनों के लिए /topups भेजें।
topup-held-not-completed = { $pid }: { $gateway } इस भुगतान को पूरा हुआ नहीं बताता: अब { $said } बताता है। कुछ जमा नहीं किया गया। पूरा हुआ बताने पर फिर कोशिश करें, या अस्वीकार करें।
topup-held-not-completed-final = { $pid }: { $gateway } अब { $said } बताता है: यह पूरा हुआ नहीं बताएगा। कुछ जमा नहीं किया गया। इसे अस्वीकार करें, और उसने जो पैसा रखा हो वह { $gateway } के मर्चेंट डैशबोर्ड से लौटाएँ।
# /topups' own lines (admins; h-kfix): a held top-up's facts, the refusals and outcomes of a
# decision, the open ones past the refund watch, and the records that could not be read
topup-held-title = रोका गया टॉप-अप { $pid } ({ $gateway }), उपयोगकर्ता { $user }।
topup-held-asked = माँगा गया { $asked }; { $gateway } की जाँच { $reported } बताती है (लेनदेन { $txn })।
topup-held-asked-order = माँगा गया { $asked }; { $gateway } की जाँच ऑर्डर { $order } के लिए { $reported } बताती है (लेनदेन { $txn })।
topup-held-why = कारण: { $why }।
topup-held-why-amount = राशि शुरू की गई राशि से अलग है
topup-held-why-cap = यह एक टॉप-अप की अधिकतम सीमा या दैनिक सीमा से ज़्यादा है
topup-held-why-currency = दूसरी मुद्रा
topup-held-why-merchant = दूसरा ऑर्डर नंबर
topup-held-why-status = इसकी स्थिति का शब्द गेटवे के बताए शब्दों में नहीं है: भुगतान हुआ या नहीं, पता नहीं
topup-held-said = { $gateway } की जाँच ने स्थिति "{ $said }" बताई। भुगतान उसके मर्चेंट डैशबोर्ड में जाँचें; जाँच के पूरा हुआ बताने पर ही जमा किया जाता है।
topup-held-credited = { $pid }: आपने { $amount } जमा किया; ग्राहक को बताया गया।
topup-held-rejected = { $pid }: आपने अस्वीकार किया: कुछ जमा नहीं किया गया। { $gateway } के मर्चेंट डैशबोर्ड से रिफ़ंड करें; ग्राहक को बताया गया।
topup-held-refused-unknown = { $pid }: ऐसा कोई टॉप-अप नहीं।
topup-held-refused-not-held = { $pid }: अब रोका हुआ नहीं है: दूसरा फ़ैसला लिया जा चुका है।
topup-held-refused-paid-less = { $pid }: माँगे से कम चुकाया गया: माँगी गई राशि जमा करने से वह पैसा जुड़ेगा जो किसी ने नहीं चुकाया।
topup-held-refused-above-cap = { $pid }: एक टॉप-अप की अधिकतम सीमा या आज की बची दैनिक सीमा से ज़्यादा: जमा नहीं किया गया।
topup-held-refused-currency = { $pid }: दूसरी मुद्रा में चुकाया गया: माँगी गई राशि जमा करें या अस्वीकार करें।
topup-held-refused-ledger-refused = { $pid }: हिसाब ने जमा अस्वीकार किया (अलर्ट देखें): कुछ नहीं लिखा गया।
topup-held-refused-gateway-disagrees = { $pid }: गेटवे अब इस भुगतान को उस राशि के साथ पूरा हुआ नहीं बताता (रिफ़ंड हुआ या बदला): जमा नहीं किया गया।
topup-held-refused-gateway-unavailable = { $pid }: गेटवे ने जवाब नहीं दिया: कुछ जमा नहीं किया गया; बाद में फिर कोशिश करें।
topup-past-watch-title = रिफ़ंड निगरानी के बाद भी खुले (कुछ जमा नहीं किया गया; रोज़ जाँचे जाते हैं; गेटवे के मर्चेंट डैशबोर्ड में देखें):
topup-past-watch-line = { $pid } ({ $gateway }, { $id }): उपयोगकर्ता { $user }, { $amount }, { $status }, { $age } पुराना
topup-past-watch-initiated = शुरू किया गया
topup-past-watch-pending = लंबित
topup-age = { $days } दिन { $hours } घंटे
topup-unreadable-count = { $count } टॉप-अप रिकॉर्ड पढ़े नहीं जा सके (लॉग देखें): { $ids }।
topup-unreadable-what = अब उनकी जाँच, जमा, वापसी या अलर्ट नहीं होता: हर भुगतान गेटवे के मर्चेंट डैशबोर्ड में जाँचें और डेवलपर्स को बताएँ।

# --- issue 25: /books says what the check did, inferred debits (h-float) ---
books-drift-now = ⚠️ अभी अंतर सहनसीमा से अधिक है।
books-drift-unknowns = ⚠️ अंतर सहनसीमा से अधिक दिखता है, पर { $count } ऑर्डर की कटौती अभी ज्ञात नहीं है: कोई निर्णय नहीं।
books-inferred = ऑर्डर से अनुमानित कटौती (प्रदाता का जवाब खो गया): { $count } ऑर्डर, { $sum }
books-check-never = खाता जाँच अभी तक नहीं चली: किसी एडमिन को सूचना नहीं भेजी गई।
books-check-within = अंतिम जाँच { $time }: सहनसीमा के भीतर, सूचना की ज़रूरत नहीं।
books-check-deferred = अंतिम जाँच { $time }: कोई निर्णय नहीं, { $count } ऑर्डर की कटौती अभी ज्ञात नहीं थी; सूचना नहीं भेजी गई।
books-check-no-report = अंतिम जाँच { $time }: कोई निर्णय नहीं, प्रदाता के वॉलेट ने जवाब नहीं दिया; सूचना नहीं भेजी गई।
books-check-beyond-alerted = अंतिम जाँच { $time }: सहनसीमा से अधिक; { $alerted } पर { $admins } एडमिन को सूचना भेजी गई।
books-check-beyond-silent = अंतिम जाँच { $time }: सहनसीमा से अधिक; कोई सूचना नहीं भेजी गई।
books-check-unbalanced-alerted = अंतिम जाँच { $time }: खाता नहीं मिलता ({ $wallet }); { $alerted } पर { $admins } एडमिन को सूचना भेजी गई।
books-check-unbalanced-silent = अंतिम जाँच { $time }: खाता नहीं मिलता ({ $wallet }); कोई सूचना नहीं भेजी गई।
books-check-wallet = { $state ->
        [within] वॉलेट का अंतर सहनसीमा के भीतर था
        [deferred] वॉलेट पर कोई निर्णय नहीं: { $count } ऑर्डर की कटौती अभी ज्ञात नहीं थी
       *[no_report] वॉलेट पर कोई निर्णय नहीं: प्रदाता के वॉलेट ने जवाब नहीं दिया
    }
books-check-no-admins = कोई एडमिन तय नहीं है: सूचना किसी तक नहीं पहुँचती।
books-raised-none = अभी कायम सूचनाएँ: कोई नहीं।
books-raised-title = अभी कायम सूचनाएँ ({ $count }):
books-raised-drift = ⚠️ वॉलेट में अंतर: खाते के अनुसार { $expected }, प्रदाता बताता है { $reported }; अंतर { $drift } (सहनसीमा { $tolerance })।
books-raised-unbalanced = ⚠️ खाता नहीं मिलता: { $problems } समस्याएँ (दर्ज बैलेंस का जोड़ { $posted }, रोके गए का { $pending })।
books-raised-no-verdict-debits = ⚠️ खाता जाँच { $hours } घंटे से कोई निर्णय नहीं दे पाई: पिछली कोशिश में { $count } ऑर्डर की कटौती अभी ज्ञात नहीं थी।
books-raised-no-verdict-wallet = ⚠️ खाता जाँच { $hours } घंटे से कोई निर्णय नहीं दे पाई: पिछली कोशिश में प्रदाता के वॉलेट ने जवाब नहीं दिया।
books-raised-low-float = ⚠️ वॉलेट कम: प्रदाता के पास वॉलेट अभी { $balance } है ({ $threshold } से कम होने पर सूचना); जब तक किसी ऑर्डर का जवाब उतना या अधिक न दिखाए, सूचना कायम रहती है।
books-raised-sent = { $time } पर { $admins } एडमिन को सूचना भेजी गई।
books-raised-unsent = किसी एडमिन को सूचना नहीं भेजी गई (कोई तय नहीं है)।
status-wallet-inferred = कटौती ऑर्डर से अनुमानित है: प्रदाता का आँकड़ों वाला कोई जवाब हम तक नहीं पहुँचा।
# --- end issue 25 (h-float) ---
# --- issue 29 (h-dashboard): the back office's login link ---
cmd-dashboard = ब्राउज़र में बैक ऑफ़िस (एडमिन, एजेंट)
dashboard-link = आपका बैक ऑफ़िस लॉगिन लिंक। यह एक बार, 10 मिनट तक ही चलता है; इसे किसी को न भेजें:
    { $url }
dashboard-denied = बैक ऑफ़िस केवल एडमिन और एजेंट के लिए है।
dashboard-unavailable = बैक ऑफ़िस अभी लिंक नहीं दे सका। कृपया एक मिनट बाद फिर कोशिश करें।
# --- end issue 29 (h-dashboard) ---
# --- issue 29 (h-people): a customer the merchant blocked ---
access-blocked = आपका खाता दुकान ने रोक दिया है, इसलिए आप यहाँ ऑर्डर नहीं कर सकते और पैसे नहीं जोड़ सकते। पहले किए गए ऑर्डर हमेशा की तरह चलते रहेंगे। कारण जानने के लिए दुकान से संपर्क कीजिए।
# --- end issue 29 (h-people) ---

# --- WhatsApp (issue 28) ---
wa-list-opener = चुनें
# --- issue 29 (h-dash29): /dashboard in /help ---
help-dashboard = /dashboard – ब्राउज़र में बैक ऑफ़िस (ऑर्डर, ग्राहक, खाता) खोलने का एक बार का लिंक, अगर यह बॉट उसे चलाता है।
# --- end issue 29 (h-dash29) ---
# --- WhatsApp (issue 28): a Telegram user and a WhatsApp account of one number ---

# --- issue 30 (h-r30): what identifies the account on every receipt and push ---
receipt-line-office = कार्यालय: { $office }
receipt-line-sc = SC नंबर: { $sc }
receipt-line-holder = खाताधारक: { $name }
receipt-line-subscriber = ग्राहक: { $name }
# --- end issue 30 (h-r30) ---
# --- issue 30 wording (h-w30) ---
start-choose = क्या भरना है चुनिए, या /help भेजिए।
start-choose-whatsapp = क्या भरना है चुनिए, या "{ $help }" टाइप कीजिए।
topup-leave-question = बैलेंस में पैसे जोड़ना छोड़ दें? अभी तक कुछ भुगतान नहीं हुआ है।
topup-flow-cancelled = रद्द कर दिया। कुछ नहीं जोड़ा गया, कुछ भुगतान नहीं हुआ। पैसे जोड़ने के लिए /addmoney भेजिए।
cashin-leave-question = यह नकद जमा छोड़ दें? अभी तक कुछ नहीं भेजा गया।
cashin-cancelled = नकद जमा रद्द कर दिया। कुछ नहीं भेजा गया: कोई बैलेंस नहीं बदला। फिर से शुरू करने के लिए /cashin भेजिए।
notify-reason-not-sent = ऑर्डर पूरा नहीं हो सका
# --- issue 30 (h-a30): agents and admins ---
reverse-notice-agent = ↩️ { $customer } को किया गया आपका नकद जमा { $ref } ({ $amount }) व्यापारी ने वापस लिया: { $reason }
    { $amount } आपके एजेंट बैलेंस में लौट आए: { $balance }
cashin-confirm-named = { $phone } ({ $name }) के बैलेंस में { $amount } जोड़ें?
    उसके बाद आपका बैलेंस: { $after }
    रसीद: { $ref }
agent-statement-title = पिछले लेन-देन (नए पहले, हर एक के बाद का बैलेंस):
agent-statement-credit = { $time } · व्यापारी ने +{ $amount } जमा किए · बैलेंस { $balance }
agent-statement-cash-in = { $time } · { $customer } को −{ $amount } नकद जमा · बैलेंस { $balance }
agent-statement-reversal-in = { $time } · +{ $amount } लौटे: { $customer } को नकद जमा { $ref } वापस ({ $reason }) · बैलेंस { $balance }
agent-statement-reversal-out = { $time } · −{ $amount } वापस लिए: जमा { $ref } वापस ({ $reason }) · बैलेंस { $balance }
agent-statement-in = { $time } · +{ $amount } · बैलेंस { $balance }
agent-statement-out = { $time } · −{ $amount } · बैलेंस { $balance }
help-admin-books = /books – व्यापारी का हिसाब: एग्रीगेटर वॉलेट, ग्राहकों और एजेंटों के पास की रकम, और क्या वे मेल खाते हैं
help-admin-topups = /topups – आपके फ़ैसले के लिए रोके गए ऑनलाइन टॉप-अप
help-admin-status = /status 9841234567 – फ़ोन नंबर से पंजीकृत ग्राहक के हाल के ऑर्डर, रेफ़रेंस नंबर के साथ (रेफ़रेंस नंबर से एक ऑर्डर दिखता है)
status-phone-title = { $phone } से पंजीकृत ग्राहक के हाल के ऑर्डर (नए पहले; /status और रेफ़रेंस एक दिखाता है):
status-phone-line = { $time } · { $ref } · { $operator } · { $number } · { $amount } · { $status }
status-phone-unknown = { $phone } से कोई पंजीकृत नहीं है, और उस रेफ़रेंस नंबर का कोई ऑर्डर नहीं है।
status-phone-empty = { $phone } से पंजीकृत ग्राहक का अभी तक कोई ऑर्डर नहीं है।

# /history: totals, references, months and search (issue 30)
history-total-npr = { $total } (आपके बैलेंस से { $npr })
history-total-npr-held = { $total } (आपके बैलेंस से { $npr } रोके गए)
history-total-npr-returned = { $total } ({ $npr } रोके गए थे, आपके बैलेंस में वापस कर दिए गए)
history-total-npr-merchant = { $total } ({ $npr })
history-total-returned = { $total } (आपके बैलेंस में वापस कर दिए गए)
# The same refund on a /history line ($total as above).
history-total-refunded = { $total } · { $time } को { $refund } वापस किए गए (शिकायत { $complaint })
history-total-refunded-part = { $total } · { $time } को { $refund } वापस किए गए (शिकायत { $complaint }) · अंत में { $paid } का भुगतान
history-title-month = { $page ->
    [0] { $month } के आपके ऑर्डर:
   *[other] { $month } के आपके ऑर्डर (पेज { $page }):
  }
history-title-number = { $page ->
    [0] { $number } के आपके ऑर्डर:
   *[other] { $number } के आपके ऑर्डर (पेज { $page }):
  }
history-empty-month = { $month } में आपका कोई ऑर्डर नहीं है।
history-empty-number = { $number } के लिए आपका कोई ऑर्डर नहीं है।
history-month-button = 📅 { $month }
history-all = 📋 सभी ऑर्डर
history-search = 🔎 नंबर खोजें
history-search-ask = कौन-सा नंबर या खाता खोजूँ? टाइप कीजिए, जैसे 9841234567।
history-search-invalid = यह नंबर या खाता आईडी नहीं है। इसके अंक (और अक्षर) टाइप कीजिए, जैसे 9841234567।
history-invalid = /history के बाद महीना (जैसे 2026-10) या नंबर (9841234567) टाइप कीजिए, या पिछले ऑर्डर के लिए कुछ नहीं।
# --- issue 30 (h-reminders): reminders ---
cmd-reminders = आने वाले रिमाइंडर, और उन्हें बंद करना
reminders-title = ⏰ एक रिमाइंडर
reminder-plan = { $category } · { $number } ({ $operator }): आपका { $amount } का प्लान { $date } को खत्म होगा।
reminder-bill = { $category } · { $number } ({ $operator }): आप मासिक बिल आमतौर पर { $date } को भरते हैं। पिछली बार: { $amount }।
reminder-usual = { $category } · { $number } ({ $operator }): आप आमतौर पर { $date } के आसपास रिचार्ज करते हैं। पिछली बार: { $amount }।
reminders-pay-again = फिर से भुगतान करने के लिए दबाएँ: कुछ भी भुगतान होने से पहले आप ऑर्डर देखकर पुष्टि करते हैं। /reminders आने वाले रिमाइंडर दिखाता है और उन्हें बंद करता है।
reminder-button = 🔁 फिर से भुगतान { $number } · { $amount }
reminders-stop-these = 🔕 ये रिमाइंडर बंद करें
reminders-stopped-these = 🔕 हो गया: इनके लिए अब रिमाइंडर नहीं आएँगे। /reminders बाकी दिखाता है।
reminders-list-title = ⏰ आपके आने वाले रिमाइंडर (दिन में अधिकतम एक संदेश, 09:00 से 20:00 के बीच):
reminders-list-item = { $line }
    रिमाइंडर { $when } को।
reminders-list-empty = अभी कोई रिमाइंडर नहीं है। रिचार्ज या बिल भुगतान सफल होने पर, मैं प्लान खत्म होने से पहले या अगली बार भुगतान का समय आने पर याद दिलाऊँगा।
reminders-list-off = 🔕 रिमाइंडर बंद हैं: मैं कोई नहीं भेजता।
reminders-stop-one = 🔕 { $number } बंद करें
reminders-stop-all = 🔕 सभी रिमाइंडर बंद करें
reminders-turn-on = 🔔 रिमाइंडर फिर से चालू करें
reminders-one-off-done = 🔕 हो गया: उसके लिए अब रिमाइंडर नहीं आएँगे।
reminders-all-off-done = 🔕 सभी रिमाइंडर बंद हो गए।
reminders-on-done = 🔔 रिमाइंडर फिर से चालू हो गए।
reminders-list-none = अभी कोई रिमाइंडर नहीं है।
reminders-list-stopped = 🔕 बंद किए गए: { $numbers }। जब तक आप रिमाइंडर फिर से चालू नहीं करते, अगले भुगतान के बाद भी इनके लिए रिमाइंडर नहीं आएँगे।
reminders-pay-again-typed = फिर से भुगतान करने के लिए /history लिखकर जवाब दें: कुछ भी भुगतान होने से पहले आप ऑर्डर देखकर पुष्टि करते हैं। /reminders आने वाले रिमाइंडर दिखाता है और उन्हें बंद करता है।
# --- issue 30 (h-deadends): no dead ends ---
idle-start-again = फिर से शुरू करने के लिए { $command } भेजिए।
credit-leave-question = यह राशि जोड़ना छोड़ दें? अभी तक कुछ नहीं भेजा गया।
credit-cancelled = राशि जोड़ना रद्द कर दिया। कुछ नहीं भेजा गया: कोई बैलेंस नहीं बदला। फिर से शुरू करने के लिए /credit भेजिए।
reverse-leave-question = यह वापसी छोड़ दें? अभी तक कुछ नहीं भेजा गया।
reverse-cancelled = वापसी रद्द कर दी। कुछ नहीं भेजा गया: कोई बैलेंस नहीं बदला। फिर से शुरू करने के लिए /reverse भेजिए।
push-try-again = 🔁 फिर से कोशिश करें
push-change-number = ✏️ नंबर बदलें
balance-empty = आपका बैलेंस { $balance } है: अभी भुगतान के लिए कुछ नहीं है, इसलिए कुछ नहीं पूछा गया। पहले पैसे जोड़िए, फिर चुनिए कि क्या भुगतान करना है।
balance-cash-in = एजेंट (दुकान) नकद लेकर आपके पंजीकृत नंबर पर बैलेंस में पैसे जोड़ सकते हैं।
balance-own-agent = ऑर्डर आपके अपने बैलेंस से चुकाए जाते हैं, एजेंट फ़्लोट से नहीं (वह नकद जमा के लिए है)। अपने बैलेंस में पैसे जोड़ने के लिए व्यापारी से कहिए।
balance-short-by = आपका बैलेंस { $balance } है और इस ऑर्डर की कीमत { $total } है: { $shortfall } कम।
shortfall-kept = आपके जवाब रखे गए हैं: पैसे जुड़ते ही यह ऑर्डर पुष्टि के लिए फिर आएगा।
shortfall-topup-cap = ऑनलाइन पैसे जोड़ना: आज अब केवल { $left } और जोड़े जा सकते हैं, इस कमी से कम। दैनिक सीमा आधी रात को फिर शुरू होती है: { $time } से।
shortfall-add = ➕ { $amount } जोड़ें और आगे बढ़ें
shortfall-check-again = 🔄 बैलेंस फिर से जाँचें
shortfall-pay = { $amount } जोड़ने के लिए "खल्ती से भुगतान करें" दबाइए और ब्राउज़र में भुगतान कीजिए। जुड़ने के बाद "▶ ऑर्डर जारी रखें" दबाइए (यहाँ या जुड़ने वाले संदेश के नीचे): आपका ऑर्डर नई कीमत के साथ, आपके जवाबों सहित, पुष्टि के लिए फिर आएगा।
shortfall-continue = ▶ ऑर्डर जारी रखें
shortfall-gone = वह ऑर्डर अब इंतज़ार में नहीं है: वह हो चुका है, रद्द हुआ या समय समाप्त हुआ (आपके किए ऑर्डर /history में दिखते हैं)। आपके जोड़े और खर्च न किए पैसे आपके बैलेंस में ही हैं (देखने के लिए: /balance)। फिर से ऑर्डर करने के लिए /recharge भेजिए।
# --- issue 30 (h-complaints): ऑर्डर पर शिकायत ---
cmd-complain = ऑर्डर में समस्या बताएँ
cmd-complaints = खुली शिकायतें (एडमिन)
complaint-flow-cancelled = कोई शिकायत दर्ज नहीं हुई। समस्या बताना हो तो /complain भेजें।
complaint-leave-question = यह शिकायत दर्ज करना छोड़ दें? अभी तक कुछ नहीं भेजा गया है।
complaint-flow-ended = रोक दिया: कोई शिकायत दर्ज नहीं हुई या बदली नहीं गई। इससे किसी ऑर्डर या भुगतान में कुछ नहीं बदलता; समस्या बतानी हो तो /complain भेजें।
complaint-not-offered = इस चैट में अभी शिकायतें नहीं ली जातीं। कृपया दुकान से संपर्क करें।
complaint-no-orders = आपका अभी तक कोई ऑर्डर नहीं है, इसलिए शिकायत की कोई बात नहीं है।
complaint-which-order = किस ऑर्डर में समस्या है?
complaint-order-choice = { $ref } · { $number } · { $amount }
complaint-unknown-order = आपका { $ref } नंबर का कोई ऑर्डर नहीं मिला। अपने ऑर्डरों में से चुनने के लिए /complain भेजें।
complaint-ask-reason = ऑर्डर { $order } में क्या गड़बड़ हुई?
complaint-reason-not-received = पैसे कटे पर रिचार्ज नहीं मिला
complaint-reason-wrong-number = गलत नंबर पर गया
complaint-reason-wrong-amount = गलत राशि
complaint-reason-duplicate = दो बार पैसे कटे
complaint-raised = 📝 ऑर्डर { $order } के लिए शिकायत { $ref } दर्ज हुई: { $reason }।
    हम { $due } तक ({ $days } कार्य दिवसों में) जवाब देंगे। हर कदम पर आपको यहीं बताया जाएगा।
complaint-already-open = ऑर्डर { $order } पर पहले से एक खुली शिकायत है: { $ref } ({ $status })। हम { $due } तक जवाब देंगे।
complaint-status-logged = दर्ज
complaint-status-taken = जाँच जारी
complaint-status-resolved = सुलझ गई
complaint-status-rejected = अस्वीकृत
complaint-taken = 🔎 ऑर्डर { $order } के बारे में आपकी शिकायत { $ref } की जाँच हो रही है। हम { $due } तक जवाब देंगे।
complaint-resolved = ✅ ऑर्डर { $order } के बारे में आपकी शिकायत { $ref } सुलझ गई: { $text }
complaint-refunded = { $amount } आपके बैलेंस में लौटा दिए गए। रिफ़ंड के बाद बैलेंस: { $balance }
complaint-refunded-balance-unknown = { $amount } आपके बैलेंस में लौटा दिए गए।
complaint-rejected = ❌ ऑर्डर { $order } के बारे में आपकी शिकायत { $ref } स्वीकार नहीं हुई: { $why }
complaint-report-button = ⚠️ समस्या बताएँ
complaint-denied = यह कमांड केवल एडमिन के लिए है।
complaints-none = कोई शिकायत खुली नहीं है।
complaints-more = ये सबसे जल्दी देय { $shown } शिकायतें हैं; { $more } और खुली हैं। बैक ऑफ़िस का शिकायतें पेज उन्हें दिखाता है (100 तक); यहाँ, इनका जवाब दें और अगली के लिए फिर /complaints भेजें।
complaints-line = { $ref } · ऑर्डर { $order } · { $reason } ({ $code }) · ग्राहक { $user }
    { $status } · { $age } पहले दर्ज · समय सीमा { $due }
complaints-overdue = ⏰ समय सीमा { $late } से पार
complaints-due-in = { $left } बाकी
complaint-take-button = लें
complaint-resolve-button = सुलझाएँ
complaint-reject-button = अस्वीकार करें
complaint-taken-by-you = आपने शिकायत { $ref } ली; ग्राहक को सूचना भेजी जा रही है।
complaint-closed-already = शिकायत { $ref } पहले ही { $status } है: { $text }
complaint-already-taken = शिकायत { $ref } की जाँच पहले से हो रही है।
complaint-unknown = { $ref } नंबर की कोई शिकायत नहीं है।
complaint-admin-resolve-how = शिकायत { $ref }, ऑर्डर { $order } ({ $reason }): कैसे सुलझाएँ?
complaint-admin-refund-button = { $amount } लौटाकर सुलझाएँ
complaint-admin-no-refund-button = बिना पैसे लौटाए सुलझाएँ
complaint-admin-no-refund-why = पैसे लौटाना संभव नहीं: { $why }।
complaint-admin-reversed = ⚠️ एग्रीगेटर ने ऑर्डर { $order } के लिए { $time } पर "{ $word }" कहा: सफल होने के बाद उसने रिचार्ज उलट दिया। रिफंड करने से पहले जाँच लीजिए कि ग्राहक को पैसे किसी और तरीके से (/credit) पहले ही नहीं लौटाए गए।
complaint-refund-not-paid = ऑर्डर ग्राहक के बैलेंस से नहीं चुकाया गया था
complaint-refund-failed = ऑर्डर विफल हुआ और उसके पैसे पहले ही बैलेंस में लौट चुके हैं
complaint-refund-not-final = ऑर्डर अभी पूरा नहीं हुआ है
complaint-refund-already = इसी ऑर्डर की दूसरी शिकायत पर पैसे पहले ही लौटाए जा चुके हैं
complaint-refund-too-much = यह ग्राहक के चुकाए से अधिक है
complaint-refund-books = हिसाब ने पैसे लौटाना अस्वीकार किया
complaint-admin-ask-done = क्या किया गया? ग्राहक इसे पढ़ेंगे (3 से 200 अक्षर)।
complaint-admin-ask-why = क्यों अस्वीकार किया गया? ग्राहक इसे पढ़ेंगे (3 से 200 अक्षर)।
complaint-admin-bad-text = कृपया 3 से 200 अक्षर लिखें।
complaint-admin-confirm-resolve = शिकायत { $ref } को इस तरह सुलझाएँ: { $text }
complaint-admin-confirm-refund = ग्राहक के बैलेंस में { $amount } लौटाकर शिकायत { $ref } को इस तरह सुलझाएँ: { $text }
complaint-admin-confirm-reject = शिकायत { $ref } अस्वीकार करें, कारण: { $text }
complaint-admin-resolved = शिकायत { $ref } सुलझ गई; ग्राहक को सूचना भेजी जा रही है।
complaint-admin-refunded = शिकायत { $ref } { $amount } लौटाकर (ट्रांसफर { $transfer }) सुलझ गई; ग्राहक को सूचना भेजी जा रही है।
complaint-admin-rejected = शिकायत { $ref } अस्वीकार हुई; ग्राहक को सूचना भेजी जा रही है।
complaint-admin-refused = कुछ नहीं किया गया: { $why }।
complaints-new-admin = 📝 ऑर्डर { $order } पर नई शिकायत { $ref }: { $reason } ({ $code }), ग्राहक { $user }। समय सीमा { $due }। /complaints
movement-refund = { $time } · शिकायत पर +{ $amount } वापस
help-complain = /complain – ऑर्डर में समस्या बताएँ (पैसे कटे पर रिचार्ज नहीं मिला, गलत नंबर या राशि, दो बार पैसे कटे); /complain और ऑर्डर का रेफरेंस नंबर, या रसीद के नीचे ⚠️ समस्या बताएँ
help-admin-complaints = /complaints – समय सीमा सहित खुली शिकायतें: लें, सुलझाएँ (पैसे लौटाकर) या अस्वीकार करें
receipt-share = 📄 रसीद शेयर करें
receipt-doc-caption = ऑर्डर { $ref } की रसीद: इसे रखें या आगे भेजें।
receipt-doc-footer = संदर्भ संख्या संभालकर रखें: /status और संदर्भ संख्या भेजने पर चैट में यह ऑर्डर दिखता है।
receipt-share-not-final = यह ऑर्डर अभी पूरा नहीं हुआ है: ऑपरेटर के जवाब के बाद रसीद शेयर की जा सकती है।
cmd-statement = मासिक विवरण (पीडीएफ)
statement-choose = किस महीने का विवरण चाहिए? यह पीडीएफ में आता है, जिसे आप रख सकते हैं या आगे भेज सकते हैं।
statement-too-long = { $month } के विवरण में एक दस्तावेज़ में भेजने के लिए बहुत अधिक पंक्तियाँ हैं। कृपया दुकान से माँगें।
statement-doc-caption = { $month } का आपका विवरण।
statement-doc-caption-agent = { $month } का आपके अपने बैलेंस का स्टेटमेंट (वह बैलेंस जिससे आपके अपने ऑर्डर चुकते हैं)। आपका एजेंट बैलेंस और उसका हिसाब: /balance, और बैक ऑफ़िस (/dashboard)।
statement-doc-title = { $month } का विवरण
statement-doc-holder = खाता: { $holder }
statement-doc-opening = शुरुआत में खर्च के लिए उपलब्ध: { $balance }
statement-doc-opening-held = शुरुआत में ऑपरेटर के पास रहे ऑर्डर के लिए रोका गया: { $held }
statement-doc-in-out = आई राशि: { $in } · गई राशि: { $out }
statement-doc-closing = अंत में खर्च के लिए उपलब्ध: { $balance }
statement-doc-held = अंत में ऑपरेटर के पास रहे ऑर्डर के लिए रोका गया: { $held }
statement-doc-footer = सभी समय नेपाल समय के अनुसार हैं। हर पंक्ति उसके ठीक बाद खर्च के लिए उपलब्ध राशि दिखाती है। ऑर्डर तब दिखता है जब आपने उसे पक्का किया (तभी से उसकी राशि रोकी जाती है); असफल ऑर्डर की राशि लौटने पर वह फिर दिखता है।
statement-col-date = तारीख
statement-col-what = विवरण
statement-col-ref = संदर्भ
statement-col-change = बदलाव
statement-col-balance = उपलब्ध
statement-kind-order = ऑर्डर
statement-kind-order-failed = ऑर्डर असफल: राशि वापस
statement-kind-credit = जमा
statement-kind-demo-credit = डेमो जमा
statement-kind-cash-in = नकद जमा
statement-kind-topup = ऑनलाइन टॉप-अप
statement-kind-adjustment = सुधार
statement-kind-refund = वापसी
statement-kind-reversal = उलटा गया
statement-kind-other = अन्य
# --- issue 30 (h-shortcuts): shortcuts ---
bot-description = नेपाल और भारत में मोबाइल रिचार्ज और बिल भुगतान: NTC टॉप-अप, डेटा पैक, टीवी, इंटरनेट, लैंडलाइन, पानी और बिजली। /start भेजें, या सिर्फ़ फ़ोन नंबर या ग्राहक आईडी भेजें, मैं उसी से शुरू करूँगा।
bot-short-description = नेपाल और भारत के लिए मोबाइल रिचार्ज और बिल भुगतान। शुरू करने के लिए नंबर भेजें।
cmd-myqr = मेरी दुकान का क्यूआर कोड (एजेंट)
shortcut-which = { $number } क्या है? क्या भरना है, चुनिए:
shortcut-shop-register = आपने एक दुकान का क्यूआर कोड स्कैन किया। अपने फ़ोन नंबर से पंजीकरण कीजिए (नीचे का बटन), फिर आप उस दुकान के ग्राहक बन जाएँगे: दुकान नकद लेकर आपके बैलेंस में पैसे जोड़ सकती है।
shortcut-shop-joined = ✅ अब आप इस दुकान के ग्राहक हैं। /recharge भेजिए, या रिचार्ज के लिए सिर्फ़ फ़ोन नंबर भेजिए।
shortcut-shop-again = आप पहले से पंजीकृत हैं। /recharge भेजिए, या रिचार्ज के लिए सिर्फ़ फ़ोन नंबर भेजिए।
shortcut-shop-agent-told = 🆕 आपकी दुकान के क्यूआर कोड से नया ग्राहक: { $name }, { $phone }। /cashin से उनके बैलेंस में पैसे जोड़ सकते हैं।
shortcut-qr-caption = आपकी दुकान का क्यूआर कोड। इसे छापकर वहाँ लगाइए जहाँ ग्राहक भुगतान करते हैं: स्कैन करने पर यह बॉट खुलता है, और पंजीकरण करने वाला हर व्यक्ति आपका ग्राहक बनता है (आपको संदेश आता है)।
    लिंक: { $link }
    WhatsApp पर ग्राहक भेजें: { $code }
shortcut-qr-whatsapp = WhatsApp पर यहाँ क्यूआर तस्वीर नहीं भेजी जा सकती: उसके लिए टेलीग्राम पर /myqr भेजिए, या लिंक को क्यूआर कोड के रूप में छापिए।
shortcut-qr-agents-only = दुकान का क्यूआर कोड सिर्फ़ एजेंटों का होता है।
# /help: the statement, reminders and the shop QR code (issue 30)
help-statement = /statement – महीने का विवरण पीडीएफ में (शुरुआती और अंतिम बैलेंस, हर लेन-देन)
help-reminders = /reminders – मैं किस बात की याद दिलाऊँगा (खत्म होते प्लान, मासिक बिल), और याद दिलाना बंद करना
help-agent-shop = /myqr – आपकी दुकान का क्यूआर कोड: इसे स्कैन करने वाला ग्राहक आपकी दुकान से जुड़कर रजिस्टर होता है
reminders-not-offered = यह दुकान याद दिलाने वाले संदेश नहीं भेजती।
# --- h-chatrefund: a partial refund decided in the chat (/topups) ---
topup-partial-none-waiting = कोई टॉप-अप रोका नहीं गया है, न ही किसी आंशिक रिफंड की राशि का इंतज़ार है।
topup-partial-said-part = { $gateway } कहता है: आंशिक रूप से रिफंड, राशि के बिना।
topup-partial-said-maybe-whole = { $gateway } कहता है: पूरा हुआ और रिफंड हुआ, राशि के बिना (पूरा या कुछ हिस्सा)।
topup-partial-line-credited = आंशिक रिफंड की राशि डालनी है: टॉप-अप { $pid } ({ $gateway }), ग्राहक { $who }। भुगतान { $paid }; जमा किया गया { $credited }। { $said }
topup-partial-line-uncredited = आंशिक रिफंड की राशि डालनी है: टॉप-अप { $pid } ({ $gateway }), ग्राहक { $who }। भुगतान { $paid }; अभी तक कुछ जमा नहीं किया गया। { $said }
topup-partial-enter-button = लौटाई गई राशि डालें
topup-partial-reject-button = अस्वीकार (कुछ जमा नहीं)
topup-partial-ask-amount = टॉप-अप { $pid } की कितनी राशि { $gateway } ने लौटाई? उसके मर्चेंट डैशबोर्ड में दिखती है। { $min } से { $max } तक की राशि टाइप करें।
topup-partial-confirm-take = { $gateway } ने टॉप-अप { $pid } के { $returned } लौटाए: { $who } के बैलेंस से { $returned } वापस लिए जाएंगे (अभी उपलब्ध { $available }; जो कम है वह नहीं लिया जाएगा)। ग्राहक को बताया जाएगा।
topup-partial-confirm-rest = { $gateway } ने टॉप-अप { $pid } में भुगतान किए गए { $paid } में से { $returned } लौटाए: बाकी { $rest } { $who } के बैलेंस में सीमा के भीतर जमा किए जाएंगे। ग्राहक को बताया जाएगा।
topup-partial-confirm-all = { $gateway } ने टॉप-अप { $pid } के पूरे { $paid } लौटा दिए: { $who } को कुछ जमा नहीं किया जाएगा। ग्राहक को बताया जाएगा।
topup-partial-confirm-reject = टॉप-अप { $pid } अस्वीकार: { $who } को कुछ जमा नहीं किया जाएगा; { $paid } में से खल्ती ने जो रखा वह उसके मर्चेंट डैशबोर्ड से रिफंड करें। ग्राहक को बताया जाएगा।
topup-partial-took = { $pid }: { $gateway } के लौटाए { $returned } में से { $reversed } { $who } के बैलेंस से वापस लिए गए। ग्राहक को बताया गया।
topup-partial-short = { $pid }: { $gateway } के लौटाए { $returned } में से { $reversed } वापस लिए गए; बैलेंस में { $short } कम था: इसे हाथ से वसूलें। ग्राहक को बताया गया।
topup-partial-credited = { $pid }: { $gateway } के लौटाए { $returned } के बाद बाकी { $credited } { $who } को जमा किए गए। ग्राहक को बताया गया।
topup-partial-none = { $pid }: पूरा लौटा दिया गया, कुछ जमा नहीं किया गया। ग्राहक को बताया गया।
topup-partial-rejected = { $pid }: अस्वीकार किया गया, कुछ जमा नहीं किया गया। खल्ती ने जो रखा वह उसके मर्चेंट डैशबोर्ड से रिफंड करें। ग्राहक को बताया गया।
topup-partial-refused-unknown = ऐसा कोई टॉप-अप नहीं: { $pid }।
topup-partial-refused-not-partial = { $pid } का फ़ैसला हो चुका है (किसी और एडमिन या पिछले टैप से): कुछ नहीं किया गया।
topup-partial-refused-amount = { $pid }: यह राशि मान्य नहीं है: कुछ नहीं किया गया।
topup-partial-refused-ledger-refused = { $pid }: हिसाब ने इसे अस्वीकार किया (अलर्ट देखें): कुछ नहीं लिखा गया।
topup-partial-refused-above-cap = { $pid }: बाकी राशि एक टॉप-अप की अधिकतम सीमा या आज की बची दैनिक सीमा से ज़्यादा है: कुछ जमा नहीं किया गया।
topup-partial-refused-credited = { $pid } जमा हो चुका है: यह लौटाई गई राशि डालने से ही खत्म होता है, अस्वीकार से नहीं।
topup-partial-refused-gateway-disagrees = { $pid }: खल्ती अब इस भुगतान को उस राशि के लिए आंशिक रिफंड नहीं बताता: कुछ जमा नहीं किया गया।
topup-partial-refused-gateway-unavailable = { $pid }: खल्ती ने जवाब नहीं दिया: कुछ जमा नहीं किया गया। बाद में /topups से फिर कोशिश करें।
topup-partial-cancelled = कोई फ़ैसला नहीं हुआ। बाद में फ़ैसला करने के लिए /topups भेजें।
topup-partial-leave-question = इस आंशिक रिफंड का फ़ैसला रोकें? अभी तक कुछ तय नहीं हुआ है।
topup-partial-flow-ended = रोक दिया: कुछ तय, रिफंड या जमा नहीं हुआ; टॉप-अप जैसा था वैसा ही इंतज़ार में है। बाद में फ़ैसला करने के लिए /topups भेजें।
# --- end h-chatrefund ---
# --- h-settle: an admin settles an order the aggregator never ended ---
cmd-settle = अंतिम जवाब के बिना अटका ऑर्डर निपटाएँ (एडमिन)
settle-denied = /settle केवल एडमिन के लिए है।
settle-ask-ref = कौन-सा ऑर्डर निपटाना है? उसका रेफ़रेंस नंबर लिखें।
settle-ask-outcome = इस ऑर्डर का प्रदाता से अंतिम जवाब नहीं आया है। इसे कैसे निपटाएँ? कुछ लिखने से पहले प्रदाता से एक बार फिर पूछा जाएगा।
settle-as-failed = ❌ विफल: पैसा ग्राहक को वापस
settle-as-success = ✅ सफल: रिचार्ज पहुँच गया
settle-ask-reason = क्यों? कुछ शब्द (जैसे ऑपरेटर या प्रदाता की सहायता टीम ने क्या कहा); ये ऑर्डर पर रखे जाते हैं।
settle-confirm-failed = ऑर्डर { $ref } को विफल मानकर निपटाएँ? ग्राहक से इसका पैसा नहीं लिया जाएगा (प्रीपेड ग्राहक का रोका गया पैसा बैलेंस में वापस जाएगा) और ग्राहक को बताया जाएगा। कारण: { $reason }
settle-confirm-success = ऑर्डर { $ref } को सफल मानकर निपटाएँ? ग्राहक से इसका पैसा लिया जाएगा (प्रीपेड ग्राहक का रोका गया पैसा); प्रदाता की कटौती उसके जवाब से, वरना ऑर्डर से अनुमानित होगी। कारण: { $reason }
settle-done-failed = ✅ ऑर्डर { $ref } विफल मानकर निपटाया गया: ग्राहक से इसका पैसा नहीं लिया गया (रोका गया पैसा बैलेंस में वापस आया) और ग्राहक को बताया गया। प्रदाता ने कहा: { $said }।
settle-done-success = ✅ ऑर्डर { $ref } सफल मानकर निपटाया गया: ग्राहक से इसका पैसा लिया गया और ग्राहक को बताया गया। प्रदाता ने कहा: { $said }।
settle-aggregator-final = प्रदाता ने अभी ऑर्डर { $ref } का जवाब दिया: { $status }। वही जवाब लागू हुआ; हाथ से कुछ नहीं निपटाया गया।
settle-final = ऑर्डर { $ref } पहले से अंतिम है ({ $status }): निपटाने को कुछ नहीं।
settle-not-sent = ऑर्डर { $ref } प्रदाता को कभी भेजा ही नहीं गया: बॉट उसे खुद विफल करता है।
settle-too-young = ऑर्डर { $ref } हाथ से निपटाने के लिए बहुत नया है: प्रदाता अभी जवाब दे सकता है। इसे { $time } से निपटाया जा सकता है।
settle-cancelled = निपटान रद्द हुआ। कुछ नहीं बदला। फिर शुरू करने के लिए /settle भेजें।
settle-leave-question = यह निपटान छोड़ें? अभी तक कुछ नहीं बदला है।
settle-flow-ended = रोक दिया: किसी ऑर्डर का निपटान नहीं हुआ और कुछ नहीं बदला। फिर शुरू करने के लिए /settle भेजें।
status-settled = एडमिन { $admin } ने { $time } पर निपटाया: { $reason } (प्रदाता ने कहा: { $said })
status-settled-contradicted = ⚠️ प्रदाता ने बाद में उल्टा कहा: कोई पैसा नहीं हिला; प्रदाता से जाँचें; /books अंतर दिखाता है।
status-settled-confirmed = ✅ { $time } पर प्रदाता के अपने अंतिम जवाब ने भी यही कहा: सेटलमेंट कायम है।
status-settled-confirmed-earlier = ✅ { $time } पर प्रदाता के अपने अंतिम जवाब ने भी यही कहा था।
status-contradicted = ⚠️ { $time } पर एग्रीगेटर ने { $said } कहा; ऑर्डर { $status } ही रहता है। कोई पैसा नहीं हिला: एग्रीगेटर से जाँचिए; सुधार के लिए एडमिन चाहिए।
status-settle-hint = बहुत देर से प्रदाता का अंतिम जवाब नहीं आया: /settle { $ref }
notify-reason-settled = प्रदाता ने रिचार्ज की पुष्टि कभी नहीं की, इसलिए ऑर्डर विफल मानकर बंद किया गया
help-admin-settle = /settle – जिस ऑर्डर को प्रदाता ने घंटों से नहीं निपटाया, उसे कारण के साथ निपटाइए (विफल: पैसा ग्राहक को वापस; या सफल); एक से ज़्यादा एडमिन हों तो दूसरा एडमिन मंज़ूर करता है।
settle-confirm-approval = किसी दूसरे एडमिन को इसे मंज़ूर करना होगा: तब तक कुछ नहीं हिलेगा।
settle-proposed = 🕓 प्रस्ताव दर्ज: ऑर्डर { $ref } को { $outcome } मानकर। दूसरे एडमिन की मंज़ूरी तक कुछ नहीं हिलेगा; उन्हें बताया गया। प्रदाता ने कहा: { $said }।
settle-proposal = एडमिन { $admin } ऑर्डर { $ref } को { $outcome } मानकर निपटाने का प्रस्ताव रखते हैं: { $reason }। मंज़ूर करें? कुछ लिखने से पहले प्रदाता से एक बार फिर पूछा जाएगा।
settle-approve = ✅ मंज़ूर
settle-decline = ✖ नामंज़ूर
settle-own-proposal = ऑर्डर { $ref } को { $outcome } मानकर निपटाने का आपका प्रस्ताव ({ $reason }) दूसरे एडमिन की मंज़ूरी का इंतज़ार कर रहा है।
settle-withdraw = मेरा प्रस्ताव वापस लें
settle-withdrawn = ऑर्डर { $ref } को निपटाने का प्रस्ताव वापस ले लिया गया। कुछ नहीं हिला।
settle-other-proposal = ऑर्डर { $ref } पर एक और प्रस्ताव इंतज़ार में है: देखने के लिए /settle { $ref } भेजें।
status-settled-approved = एडमिन { $admin } ने मंज़ूर किया
status-settle-proposed = एडमिन { $admin } ने इसे { $outcome } मानकर निपटाने का प्रस्ताव रखा है; दूसरा एडमिन मंज़ूर या नामंज़ूर करता है: /settle { $ref }
settle-no-proposal = ऑर्डर { $ref } को निपटाने का प्रस्ताव इस बीच वापस या नामंज़ूर हो गया: कुछ नहीं निपटाया गया।

# --- s21 (h-link): one account on two channels, joined only with a code sent to the other chat ---
register-linked = यह चैट आपका WhatsApp खाता ({ $phone }) इस्तेमाल करती है: उसका नंबर वैसा ही रहता है। यहाँ दूसरा नंबर इस्तेमाल करने के लिए पहले /unlink भेजिए, फिर अपना संपर्क दोबारा शेयर कीजिए।
register-linked-released = यह चैट आपका WhatsApp खाता चलाती है, जिसका नंबर अब उसका अपना नहीं है (सपोर्ट ने उसे हटा दिया: नंबर का नया धारक है)। खाते में उसका पैसा और इतिहास रहता है, जिसे आप यहाँ चलाते हैं, पर अब उसका कोई नंबर नहीं है और यहाँ से जोड़ा नहीं जा सकता। उसके संदेश (ऑर्डर का नतीजा, सूचनाएँ) अब WhatsApp या इस चैट पर नहीं आते: ऑर्डर कैसे ख़त्म हुआ, देखने के लिए /history भेजें।
link-code-sent = { $phone } का { $channel } पर खाता है। वही खाता यहाँ इस्तेमाल करने के लिए हमने उस { $channel } चैट में 6 अंकों का कोड भेजा है। उसे यहाँ ऐसे टाइप कीजिए: { $command } 123456 (10 मिनट तक चलेगा)। कोड के बिना कुछ नहीं जुड़ता।
link-code =
    इस खाते को { $channel } से भी इस्तेमाल करने का आपका कोड: { $code }
    वहाँ ऐसे टाइप कीजिए: { $command } { $code }
    यह 10 मिनट तक चलेगा। अगर आपने यह नहीं माँगा, तो किसी को मत दीजिए: इसके बिना कुछ नहीं बदलता।
    { $channel } पर माँगने वाले: { $asker }। अगर वह आप नहीं हैं, तो इस संदेश को अनदेखा कीजिए।
link-done = ✅ जुड़ गया: यह चैट अब { $phone } का खाता इस्तेमाल करती है (उसका बैलेंस, इतिहास और सेव किए नंबर)। रोकने के लिए { $command } भेजिए।
link-wrong = वह कोड सही नहीं है। बचे प्रयास: { $left }।
link-too-many-tries = बहुत बार गलत कोड: वह कोड अब नहीं चलेगा, और कुछ नहीं जुड़ा।
link-no-offer = इस चैट में टाइप करने के लिए कोई कोड इंतज़ार में नहीं है: उसकी मियाद खत्म हो गई या वह इस्तेमाल हो चुका, या वह दूसरी चैट के लिए था (कोड उसी चैट में टाइप होता है जिसने उसे माँगा, उसमें नहीं जिसमें वह आया)। कुछ नहीं जुड़ा।
link-number-moved = वह कोड सही था, लेकिन { $phone } अब उस खाते का नंबर नहीं है जिसके लिए कोड भेजा गया था, इसलिए कुछ नहीं जुड़ा।
link-number-released = वह कोड सही था, लेकिन { $phone } को उस WhatsApp खाते से हटा दिया गया है जिसके लिए कोड भेजा गया था: हमारी सपोर्ट टीम ने पाया कि यह नंबर अब किसी और के पास है, इसलिए उस पर भेजा गया कोड अब यह नहीं दिखाता कि खाता आपका है। कुछ नहीं जुड़ा। खाते में उसका पैसा और इतिहास बना रहता है; अगर यह आपका है, तो हमारी सपोर्ट टीम से या जिस दुकान पर आप रिचार्ज करते हैं वहाँ पूछें।
link-already = यह चैट पहले से { $phone } का खाता इस्तेमाल करती है। रोकने के लिए { $command } भेजिए।
link-already-other = यह चैट पहले से किसी दूसरे खाते का इस्तेमाल करती है। रोकने के लिए { $command } भेजिए।
link-ask-again-telegram = नए कोड के लिए अपना संपर्क दोबारा शेयर कीजिए।
link-ask-again-whatsapp = नए कोड के लिए { $link } टाइप कीजिए।
link-too-many-codes = पिछले एक घंटे में इस चैट के लिए बहुत कोड भेजे गए। कृपया बाद में कोशिश कीजिए; कुछ नहीं जुड़ा।
link-refused-staff = एजेंट या एडमिन की चैट किसी दूसरे खाते से नहीं जुड़ती: हर चैट अपनी भूमिका और फ्लोट रखती है। कुछ नहीं बदला गया।
link-refused-own = इस चैट का अपना खाता है (नंबर या पैसा), इसलिए इसे { $phone } के खाते से नहीं जोड़ा जा सकता। कुछ नहीं बदला गया।
link-held =
    { $phone } हमारे यहाँ Telegram पर रजिस्टर्ड है।
    क्या वह Telegram खाता आपका है? { $link } टाइप कीजिए: हम उस Telegram चैट में कोड भेजेंगे, और वही खाता इस्तेमाल करने के लिए आप उसे यहाँ टाइप करेंगे।
    आपका नहीं है (यह नंबर पहले किसी और का था)? { $new } टाइप कीजिए: इस नंबर को यहाँ नया, खाली खाता मिलेगा, और Telegram खाता अपना बैलेंस रखेगा।
link-new-done = ✅ { $phone } का अब यहाँ अपना खाता है। मेनू के लिए { $hi } टाइप कीजिए।
link-how = Telegram और WhatsApp से एक ही खाता इस्तेमाल करने के लिए: Telegram पर अपना संपर्क शेयर कीजिए (वह नंबर जो आप WhatsApp पर इस्तेमाल करते हैं), या Telegram पर रजिस्टर्ड नंबर की WhatsApp चैट में { $link } टाइप कीजिए। दूसरी चैट में कोड भेजा जाता है।
unlink-done = यह चैट अब दूसरा खाता इस्तेमाल नहीं करती: फिर से अपनी है (दूसरा खाता अपना बैलेंस और इतिहास रखता है)।
unlink-none = यह चैट किसी दूसरे खाते से नहीं जुड़ी है।
link-code-unlink = जुड़ने के बाद आप इसे कभी भी यहीं से हटा सकते हैं: "{ $unlink }" भेजिए।
unlink-owner-list = ये Telegram चैट आपका खाता (बैलेंस, इतिहास और सेव किए नंबर) इस्तेमाल करती हैं:
    { $list }
    जोड़ हटाने के लिए एक चुनिए: वह अपने खाते पर लौट जाती है, और आपका बैलेंस यहीं रहता है।
unlink-owner-end = हटाइए { $n }: { $name }
unlink-owner-keep = रहने दीजिए
unlink-owner-chat = एक Telegram चैट
unlink-owner-kept = कुछ नहीं बदला: वे चैट अब भी आपका खाता इस्तेमाल करती हैं।
unlink-owner-done = हटा दिया: { $name } अब आपका खाता इस्तेमाल नहीं करती। आपका बैलेंस और इतिहास यहीं रहता है।
unlink-owner-gone = वह चैट अब आपका खाता इस्तेमाल नहीं करती: हटाने को कुछ नहीं। सूची फिर देखने के लिए "{ $unlink }" भेजिए।
unlink-by-owner = { $phone } के WhatsApp खाते ने इस चैट का जोड़ हटा दिया: यह चैट फिर अपना खाता इस्तेमाल करती है (वह खाता अपना बैलेंस और इतिहास रखता है, और यहाँ उससे शुरू किया काम रुक गया)। फिर जोड़ने के लिए { $link } भेजिए।
link-not-sent = उस { $channel } चैट में कोड नहीं भेजा जा सका (हो सकता है उसने इस बॉट को ब्लॉक किया हो)। कुछ नहीं जुड़ा; कृपया बाद में फिर कोशिश कीजिए।
link-write-first = { $phone } का खाता WhatsApp पर है, और हम उसका कोड सिर्फ़ उसी WhatsApp चैट में भेजते हैं जिसने पिछले 24 घंटों में हमें लिखा हो। कोई कोड नहीं भेजा गया और कुछ नहीं जुड़ा। { $phone } वाले फ़ोन से पहले हमारे WhatsApp नंबर पर "{ $hi }" लिखिए, फिर यहाँ दोबारा माँगिए।
link-refused-target = { $phone } का खाता इस चैट से नहीं जोड़ा जा सकता। कुछ नहीं बदला गया।
link-new-confirm = इससे { $phone } को यहाँ नया, खाली खाता मिलेगा, और यह नंबर उसे रजिस्टर करने वाले Telegram खाते से हट जाएगा (वह खाता अपना बैलेंस रखेगा, और उसे बताया जाएगा)। ऐसा करने के लिए { $confirm } टाइप कीजिए। अगर वह Telegram खाता आपका है, तो इसके बजाय { $link } टाइप कीजिए।
link-new-no-id = कोई खाता नहीं खोला गया: इस संदेश से पता नहीं चला कि इसे किस WhatsApp उपयोगकर्ता ने भेजा, और यहाँ का नया खाता उसी उपयोगकर्ता का होता है। कुछ नहीं बदला गया: { $phone } उसे रजिस्टर करने वाले Telegram खाते के पास ही रहता है। अपडेटेड WhatsApp से { $confirm } लिखें, या अगर वह Telegram खाता आपका है तो { $link } लिखें।
link-new-moved = कुछ नहीं बदला और कोई खाता नहीं खोला गया: इस बीच किसी दूसरे खाते ने { $phone } रजिस्टर कर लिया, और वह उसी के पास रहेगा। अब आप क्या कर सकते हैं, यह देखने के लिए { $hi } टाइप कीजिए।
link-new-blocked = कोई खाता नहीं खुला: { $phone } को दर्ज करने वाला खाता दुकान ने रोक दिया है, इसलिए इस नंबर को यहाँ नया खाता नहीं मिल सकता। कुछ नहीं बदला। कृपया यही फ़ोन लेकर दुकान पर जाकर इसे सुलझाइए।
link-number-taken = { $phone } को अभी उस नंबर के धारक ने WhatsApp पर रजिस्टर किया है, इसलिए अब यह इस खाते का नंबर नहीं है: अब से { $phone } पर डाला गया पैसा उस WhatsApp खाते में जाएगा। आपका बैलेंस और इतिहास यहीं रहेंगे और आप उन्हें इस्तेमाल करते रह सकते हैं। अभी इस्तेमाल होने वाला नंबर जोड़ने के लिए { $register } भेजिए।
# --- end s21 (h-link) ---
# --- h-cashin: a booking whose outcome is not known ---
cash-unsure = ⚠️ पता नहीं कि रसीद { $ref } हिसाब में दर्ज हुई या नहीं: हिसाब ने पूरा जवाब नहीं दिया। हो सकता है यह पहले ही दर्ज हो चुकी हो। उसी पैसे के लिए फिर से { $command } न भेजिए: जाँचें दबाइए: यह उसी रसीद को हिसाब में देखता है, और दर्ज न हुई हो तो अभी दर्ज करता है (दो बार कभी नहीं)।
cash-unsure-check = 🔁 जाँचें
cash-unsure-cancelled = रोक दिया। ऊपर की रसीद पहले ही दर्ज हो चुकी हो सकती है: फिर से करने से पहले देख लीजिए। /balance एजेंट के आज के नकद जमा दिखाता है; बैक ऑफिस में सभी नकद जमा और क्रेडिट हैं।
cash-unsure-cancelled-admin = रोक दिया। ऊपर की रसीद पहले ही दर्ज हो चुकी हो सकती है: फिर से करने से पहले बैक ऑफिस में देख लीजिए (नकद जमा में सभी नकद जमा, क्रेडिट और उलटाव हैं)।
cash-unsure-leave-question = छोड़ दें? ऊपर की रसीद पहले ही दर्ज हो चुकी हो सकती है: फिर से करने से पहले देख लीजिए।
cash-not-booked = ❌ दर्ज नहीं हुई: हिसाब ने रसीद { $ref } को लेने से पहले ही मना कर दिया, इसलिए कुछ भी नहीं गया। फिर जाँचने से भी यह दर्ज नहीं होगी; कृपया किसी एडमिन को बताइए।
cash-unsure-final = ⚠️ अब भी पता नहीं कि रसीद { $ref } दर्ज हुई या नहीं: { $tries } बार में हिसाब ने जवाब नहीं दिया, इसलिए यहीं रुकते हैं। उसी पैसे के लिए अभी फिर से { $command } न भेजिए: हिसाब के जवाब देने पर एडमिन बैक ऑफिस में { $ref } देखेंगे। दर्ज हुई हो तो पैसा पहुँच चुका है, और कुछ नहीं करना; दर्ज न हुई हो तो तब फिर से { $command } भेजिए।
cashin-repeat = ⚠️ इस नंबर में आपसे आज ही { $amount } नकद जमा हो चुका है: { $time }, रसीद { $ref }। पुष्टि तभी कीजिए जब ग्राहक ने वह नकद फिर से दिया हो।
# --- end h-cashin ---

# --- s21 review (h-settle2): the aggregator's answer stops a settlement; one's own proposal ---
settle-aggregator-disagrees = एग्रीगेटर ने ऑर्डर { $ref } का अंतिम जवाब अभी दिया (उसने कहा: { $said }), पर वह जवाब ऑर्डर से मेल नहीं खाता (दूसरी ट्रांज़ैक्शन आईडी)। कुछ भी सेटल नहीं किया गया: पहले एग्रीगेटर से सुलझाएँ।
settle-aggregator-unsure = एग्रीगेटर ऑर्डर { $ref } के रिचार्ज की पुष्टि नहीं करता: { $cause } (उसने कहा: { $said })। सफल के रूप में सेटल नहीं किया गया: विफल के रूप में सेटल करें, या पहले एग्रीगेटर से सुलझाएँ।
settle-unsure-not-found = उसके पास ऐसा कोई ऑर्डर नहीं है (नहीं मिला)
settle-unsure-other-order = उसने किसी दूसरे ऑर्डर के बारे में जवाब दिया
settle-unsure-refused = उसने अपने त्रुटि जवाब में स्थिति की पूछताछ ठुकरा दी, जो "नहीं मिला" छिपा सकता है
settle-unsure-unreadable = उसका जवाब पढ़ा नहीं जा सका, जो "नहीं मिला" छिपा सकता है
settle-unsure-unknown-word = उसने ऐसा स्थिति शब्द कहा जिसे बॉट नहीं जानता
settle-own-proposal-waits = ऑर्डर { $ref } सेटल करने का आपका अपना प्रस्ताव दूसरे एडमिन की मंज़ूरी का इंतज़ार कर रहा है: कुछ भी सेटल नहीं किया गया। देखने या वापस लेने के लिए /settle { $ref } भेजें।
settle-disabled = इस बॉट पर हाथ से सेटल करना बंद है: कुछ भी नहीं बदला गया। हर इंस्टेंस के यह संस्करण चलाने के बाद ऑपरेटर इसे चालू करता है।
settle-done-told = बाकी एडमिन को बताया गया।

# --- h-settle3: the aggregator's answer could not be written during a settlement ---
settle-answer-unwritten = एग्रीगेटर ने ऑर्डर { $ref } का जवाब दिया (उसने कहा: { $said }), पर वह जवाब सहेजा नहीं जा सका, इसलिए कुछ भी सेटल नहीं किया गया और आपके फ़ैसले से कोई पैसा नहीं हिला। थोड़ी देर बाद फिर /settle { $ref } भेजें: ऑर्डर उस समय जैसा है, वैसा दिखेगा।
# --- h-waid2: a WhatsApp number that writes as another WhatsApp user (held until an admin decides) ---
wa-held = ⏸️ इस WhatsApp नंबर ({ $phone }) का खाता हमारी सपोर्ट टीम की जाँच में है: इस नंबर से अब उस खाते वाले से अलग कोई WhatsApp उपयोगकर्ता लिख रहा है। सपोर्ट के फ़ैसले तक उस खाते का कुछ भी (बैलेंस, इतिहास, सहेजे नंबर) यहाँ नहीं दिखाया जाएगा, और न कुछ खर्च या ऑर्डर किया जा सकता है। सपोर्ट को बता दिया गया है और वे इसी चैट में आपको लिखेंगे; आप उस दुकान पर भी पूछ सकते हैं जहाँ आप रिचार्ज करते हैं।
wa-held-released = ℹ️ यह WhatsApp नंबर ({ $phone }) अब हमारे यहाँ के पुराने खाते से जुड़ा नहीं है, और वह खाता आपका नहीं है। इस संदेश से पता नहीं चला कि इसे किस WhatsApp उपयोगकर्ता ने भेजा, इसलिए आपका अपना खाता नहीं खोला जा सका: अपडेटेड WhatsApp से फिर लिखें, या Telegram पर इसी नंबर से रजिस्टर करें (वहाँ अपना संपर्क भेजें)।
wa-held-admin = WhatsApp नंबर { $phone } से उसके खाते { $account } वाले से अलग कोई WhatsApp उपयोगकर्ता ({ $user }, आईडी { $id }) लिख रहा है (दोबारा जारी हुआ नंबर, या मालिक की नई पहचान)। उस भेजने वाले को रोका गया है: खाते का कुछ भी दिखाया या खर्च नहीं हुआ, कुछ भी नहीं हटाया गया। चैट में फ़ैसला करें: /waid { $phone } { $accept } { $id } (यह भेजने वाला वही व्यक्ति है: सिर्फ़ आईडी { $id } वाला भेजने वाला स्वीकार होता है) या /waid { $phone } { $release } (नंबर खाते से हटता है, खाते का पैसा वहीं रहता है; चाहे कोई भी रोका गया हो)।
waid-usage = /waid <नंबर> { $accept } <आईडी> (सूचना में लिखी आईडी वाला रोका गया WhatsApp उपयोगकर्ता ही खाते का मालिक है) या /waid <नंबर> { $release } (नंबर खाते से हटता है, खाते का पैसा वहीं रहता है) भेजें।
waid-none = { $phone } वाला कोई WhatsApp खाता फ़ैसले का इंतज़ार नहीं कर रहा: कुछ नहीं बदला गया।
waid-other = { $phone }: अभी रोके गए WhatsApp उपयोगकर्ता की आईडी { $pending } है, { $id } नहीं (जिस सूचना का आप जवाब दे रहे हैं उसके बाद किसी और भेजने वाले ने लिखा)। कुछ नहीं बदला गया। सबसे नई सूचना पढ़ें, फिर से /waid भेजें।
waid-accepted = ✅ { $phone }: रोका गया WhatsApp उपयोगकर्ता अब खाते { $account } (उसके बैलेंस और इतिहास) का मालिक है। आपकी पहचान और समय के साथ दर्ज किया गया।
waid-released = ✅ { $phone } को खाते { $account } से हटा दिया गया; उस खाते में उसका पैसा और इतिहास रहता है, पर उसका कोई संदेश अब उस WhatsApp नंबर पर नहीं जाता (उसका मालिक उसे पहले से जुड़े Telegram चैट से या सपोर्ट के ज़रिए ही चला सकता है)। नंबर के धारक को अगली बार WhatsApp पर लिखने पर एक नया, खाली खाता मिलेगा। आपकी पहचान और समय के साथ दर्ज किया गया।
waid-released-open = उस खाते के अभी चल रहे ऑर्डर: { $count }। उनके नतीजे उस नंबर तक नहीं पहुँचेंगे (वे खाते के इतिहास में दिखते हैं):
waid-released-order = • { $ref }: { $amount }, { $status }
waid-released-more = … और { $more } ऑर्डर।
waid-released-none = उस खाते का कोई ऑर्डर नहीं चल रहा था।
waid-released-looked = (उसके सिर्फ़ सबसे नए { $count } ऑर्डर देखे गए।)
waid-released-unread = (उस खाते के अभी चल रहे ऑर्डर इस समय पढ़े नहीं जा सके; खाते के इतिहास में वे दिखते हैं।)
cmd-waid = रोके गए WhatsApp खाते पर फ़ैसला करें (एडमिन)
cashin-held = { $phone } का खाता सपोर्ट की जाँच में है (उसके WhatsApp नंबर से कोई दूसरा WhatsApp उपयोगकर्ता लिख रहा है): एडमिन के फ़ैसले तक इसमें नकद नहीं जोड़ा जा सकता। अभी इसके लिए नकद न लें।
cashin-blocked = { $phone } का खाता दुकान ने रोक दिया है: इसमें नकद नहीं जोड़ा जा सकता (ग्राहक वह पैसा इस्तेमाल नहीं कर पाएगा)। इसके लिए नकद न लें।
cashin-moved = { $phone } अब उस खाते का नंबर नहीं है जिसमें आप नकद जोड़ रहे थे (इस बीच नंबर उस खाते से हट गया)। कुछ भी दर्ज नहीं हुआ: अभी इसके लिए नकद न लें; आज जिसके पास यह नंबर है उसे जोड़ने के लिए फिर से /cashin भेजें।
# --- h-staffmenu: staff mode offers no /cashin or /myqr; /credit's float waits for prepaid ---
help-admin-accounts-staff = /credit – जमा करने वाले एजेंट के खाते में प्रीपेड मोड पर जाने से पहले राशि जोड़िए: जब तक ऑर्डर व्यापारी के वॉलेट से चुकाए जाते हैं, नकद जमा बंद है, इसलिए अभी इससे किसी ग्राहक को बैलेंस नहीं मिलता; /reverse – नकद जमा या राशि जोड़ कारण के साथ वापस लीजिए।
credit-staff-mode = जब तक ऑर्डर व्यापारी के वॉलेट से चुकाए जाते हैं, नकद जमा बंद है: यह एजेंट बैलेंस प्रीपेड मोड पर जाने के बाद के लिए है, तब तक कोई ग्राहक इसमें से कुछ पा या खर्च नहीं कर सकता।
shortcut-qr-staff-mode = दुकान का क्यूआर कोड बंद है: इस दुकान के ऑर्डर व्यापारी के वॉलेट से चुकाए जाते हैं और सिर्फ़ स्टाफ़ ऑर्डर कर सकता है, इसलिए स्कैन करने वाला ग्राहक यहाँ ऑर्डर नहीं कर सकता।
register-prompt-staff = अपना फ़ोन नंबर पंजीकृत करने के लिए नीचे "📱 मेरा फ़ोन नंबर भेजें" दबाइए।

# --- h-wamove: a customer's balance moved to their other account (a changed WhatsApp number) ---
statement-kind-move = आपके खातों के बीच स्थानांतरित
movement-move-in = { $time } · +{ $amount } आपके दूसरे खाते से यहाँ लाया गया
movement-move-out = { $time } · −{ $amount } आपके दूसरे खाते में भेजा गया
move-notice-from = ↪️ व्यापारी ने आपका पूरा बैलेंस, { $amount }, आपके दूसरे खाते में भेज दिया। यहाँ आपका बैलेंस: { $balance }
move-notice-to = ↩️ व्यापारी ने { $from } वाले आपके खाते से { $amount } इस खाते में भेजे। आपका बैलेंस: { $balance }
wa-number-changed = आपने अपना WhatsApp नंबर { $old } से बदलकर यह नंबर कर लिया है। आपका बैलेंस अभी { $old } वाले खाते में ही है: हमारी सहायता टीम उसे इस नंबर वाले आपके खाते में भेजेगी और हो जाने पर यहीं बताएगी। कुछ भी नहीं खोएगा।
wa-number-changed-admin = WhatsApp नंबर बदला: { $old } (खाता { $account }) अब { $new } है। सूचना पर मेटा का हस्ताक्षर है। बैक ऑफ़िस के नंबर बदलाव पेज में बैलेंस भेजें: { $link }
