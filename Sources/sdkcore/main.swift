print("sdkcore: the demo arrives with issue 2")
